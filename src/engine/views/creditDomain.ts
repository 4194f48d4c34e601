import type { RewardSpan } from '../../store/creditColourRepository';
import type { CreditDomainView } from '../../protocol/viewData';

/**
 * The fixed colour domain of a run's credit from its logged reward span (docs/architecture.md
 * §4.4): a marginal contribution v(S ∪ i) − v(S) and any credit that conserves the reward lie
 * within max − min, and the "shared" signal (the reward itself) within max(|min|, |max|); the bound
 * is the larger of the two, so rewards in [0, 1] give ±1 and rewards in [−1, 1] give ±2. A run
 * without a (non-zero, finite) reward gets ±1.
 */
export function creditDomain(span: RewardSpan | null): CreditDomainView {
  if (span === null || !Number.isFinite(span.min) || !Number.isFinite(span.max)) return { bound: 1, reward: null };
  const bound = Math.max(span.max - span.min, Math.abs(span.min), Math.abs(span.max));
  return { bound: bound > 0 ? bound : 1, reward: { min: span.min, max: span.max } };
}
