import { normalQuantile } from './normalQuantile';
import type { Interval } from './pairedStatistics';

/** The per-agent verdicts decided by the paired statistics (credit-methods.md §5.2). */
export type IdleVerdict = 'contributes' | 'harmful' | 'idle' | 'inconclusive';

/**
 * The verdict on one agent's paired contributions `d_i` over an audit window (credit-methods.md
 * §5.2; oracle E13), with tolerance `epsilon > 0` in reward units:
 *
 * * **contributes**: the 95% lower bound exceeds +ε;
 * * **harmful**: the 95% upper bound is below −ε;
 * * **idle**: TOST equivalence, the 90% interval lies inside (−ε, +ε), **and** `partnerSolo`
 *   (partner-solo competence: `mean v(N\{i}) ≥ mean R − ε`, computed by the caller);
 * * **inconclusive**: anything else, including NaN intervals (too few episodes) and equivalence
 *   without partner-solo competence; show {@link requiredSampleSize}.
 *
 * Free-rider and sole-performer verdicts build on this one elsewhere. E13: 90% CI (−0.0129, 0.0529)
 * is inconclusive at ε = 0.05 and idle at ε = 0.10. `epsilon ≤ 0` is a programmer error (RangeError).
 */
export function idleVerdict(
  statistics: { readonly ci90: Interval; readonly ci95: Interval },
  epsilon: number,
  partnerSolo: boolean,
): IdleVerdict {
  checkEpsilon(epsilon);
  const [lower95, upper95] = statistics.ci95;
  const [lower90, upper90] = statistics.ci90;
  if (lower95 > epsilon) return 'contributes';
  if (upper95 < -epsilon) return 'harmful';
  if (lower90 > -epsilon && upper90 < epsilon && partnerSolo) return 'idle';
  return 'inconclusive';
}

/**
 * Episodes needed for an equivalence (idle) verdict when the true mean contribution is 0:
 * `n ≥ (z_{1−α}·sd/ε)²` (§5.2), rounded up, and at least 2 (a sample sd needs two episodes).
 * `sd` and `epsilon` in reward units, `alpha` the one-sided level (default 0.05, z = 1.644854).
 * sd = 0.3, ε = 0.05 → 98. NaN sd gives NaN; `epsilon ≤ 0` or `alpha ∉ (0, ½)` is a programmer error.
 */
export function requiredSampleSize(sd: number, epsilon: number, alpha = 0.05): number {
  checkEpsilon(epsilon);
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`alpha must be in (0, 0.5), got ${alpha}`);
  if (Number.isNaN(sd)) return NaN;
  const z = normalQuantile(1 - alpha);
  return Math.max(2, Math.ceil(((z * sd) / epsilon) ** 2));
}

/**
 * The default verdict tolerance of §5.2: `max(0.02, 0.05·R̄)` for a window with mean team reward
 * `meanReward` (success rate). NaN mean reward gives 0.02.
 */
export function defaultVerdictEpsilon(meanReward: number): number {
  return Number.isNaN(meanReward) ? 0.02 : Math.max(0.02, 0.05 * Math.abs(meanReward));
}

function checkEpsilon(epsilon: number): void {
  if (!(epsilon > 0)) throw new RangeError(`epsilon must be positive, got ${epsilon}`);
}
