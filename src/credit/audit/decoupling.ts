import { spearman } from './spearman';

/** Why one agent's trend was flagged (credit-methods.md §5.3, the PA-MAGRPO signature). */
export interface DecouplingEvidence {
  /** Spearman ρ(step, team reward) and its two-sided p. */
  readonly rewardRho: number;
  readonly rewardP: number;
  /** Spearman ρ(step, the agent's credit share) and its two-sided p. */
  readonly shareRho: number;
  readonly shareP: number;
  /** Mean share over the last 10% of the checkpoints (at least one). */
  readonly lastShare: number;
  /** The steps over which the share declines: from its smoothed peak to the last checkpoint. */
  readonly from: number;
  readonly to: number;
}

/** Options of {@link decoupling}. */
export interface DecouplingOptions {
  /** Two-sided level of both Spearman tests, in (0, 1); default 0.05. */
  readonly alpha?: number;
  /** A final share below this, with a rising reward, also alerts; default 0.1. */
  readonly minShare?: number;
}

/**
 * The reward–cooperation decoupling alert of credit-methods.md §5.3 (PA-MAGRPO, §5.1) for one agent
 * across checkpoints: the team reward rises (Spearman ρ(step, reward) > 0 with p < α) **and** the
 * agent's credit share falls (ρ(step, share) < 0 with p < α) or ends below `minShare` (mean over the
 * last 10% of checkpoints). Returns the evidence when the alert fires, else `undefined`.
 *
 * `from` is the step of the (last) maximum of a centred moving average of the share, with half-width
 * `max(1, round(0.05·n))` (a window of about 10% of the checkpoints, at least 3, truncated at the
 * ends); `to` is the last step. A share that peaks at the last checkpoint (it never declined) spans
 * the whole run. Arrays are aligned per checkpoint, in any order; checkpoints with a non-finite
 * value are skipped, and fewer than 4 never alert (§5.3 tests have no power there). Misaligned
 * arrays or `alpha ∉ (0, 1)` are programmer errors (RangeError).
 */
export function decoupling(
  steps: readonly number[],
  teamReward: readonly number[],
  share: readonly number[],
  options: DecouplingOptions = {},
): DecouplingEvidence | undefined {
  const { alpha = 0.05, minShare = 0.1 } = options;
  if (teamReward.length !== steps.length || share.length !== steps.length) {
    throw new RangeError(
      `steps (${steps.length}), teamReward (${teamReward.length}) and share (${share.length}) must be aligned`,
    );
  }
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const { s, r, h } = sortedCheckpoints(steps, teamReward, share);
  const n = s.length;
  if (n < 4) return undefined;
  const reward = spearman(s, r);
  const trend = spearman(s, h);
  const tail = h.slice(-Math.max(1, Math.ceil(0.1 * n)));
  const lastShare = tail.reduce((sum, v) => sum + v, 0) / tail.length;
  const rising = reward.rho > 0 && reward.p < alpha;
  const falling = trend.rho < 0 && trend.p < alpha;
  if (!rising || !(falling || lastShare < minShare)) return undefined;
  const from = s[declineStart(h)] ?? NaN;
  return {
    rewardRho: reward.rho,
    rewardP: reward.p,
    shareRho: trend.rho,
    shareP: trend.p,
    lastShare,
    from,
    to: s[n - 1] ?? NaN,
  };
}

/** The checkpoints whose step, reward and share are all finite, sorted by step. */
function sortedCheckpoints(
  steps: readonly number[],
  reward: readonly number[],
  share: readonly number[],
): { s: number[]; r: number[]; h: number[] } {
  const kept = steps
    .map((_, k) => k)
    .filter((k) => Number.isFinite(steps[k]) && Number.isFinite(reward[k]) && Number.isFinite(share[k]))
    .sort((a, b) => (steps[a] ?? 0) - (steps[b] ?? 0));
  return {
    s: kept.map((k) => steps[k] ?? NaN),
    r: kept.map((k) => reward[k] ?? NaN),
    h: kept.map((k) => share[k] ?? NaN),
  };
}

/**
 * Index of the last maximum (within a relative 1e-12) of the centred moving average of `share`
 * (half-width `max(1, round(0.05·n))`, truncated at the ends, each window summed left to right);
 * 0 when that is the last index. O(n) in general: the averages are first taken from prefix sums,
 * and only those within their rounding bound of the peak are summed exactly, so the index is the
 * one the exact sums give (a flat share, where every point is near the peak, costs O(n·half)).
 * Exported for its property test.
 */
export function declineStart(share: readonly number[]): number {
  const n = share.length;
  const half = Math.max(1, Math.round(0.05 * n));
  const bounds = (k: number): [number, number] => [Math.max(0, k - half), Math.min(n, k + half + 1)];
  const prefix = new Float64Array(n + 1);
  let magnitude = 0;
  for (let k = 0; k < n; k++) {
    prefix[k + 1] = (prefix[k] ?? 0) + (share[k] ?? 0);
    magnitude += Math.abs(share[k] ?? 0);
  }
  const approximate = (k: number): number => {
    const [from, to] = bounds(k);
    return ((prefix[to] ?? 0) - (prefix[from] ?? 0)) / (to - from);
  };
  // Bounds the difference between a prefix-sum average and the exact left-to-right window sum.
  const slack = 4 * (n + 2) * Number.EPSILON * (magnitude + 1);
  let approximatePeak = -Infinity;
  for (let k = 0; k < n; k++) approximatePeak = Math.max(approximatePeak, approximate(k));
  const cut = approximatePeak - 1e-12 * Math.max(1, Math.abs(approximatePeak) + slack) - 2 * slack;
  const candidates: number[] = [];
  for (let k = 0; k < n; k++) if (approximate(k) >= cut) candidates.push(k);
  const exact = candidates.map((k) => windowMean(share, ...bounds(k)));
  const peak = exact.reduce((max, v) => Math.max(max, v), -Infinity);
  const tolerance = 1e-12 * Math.max(1, Math.abs(peak));
  let last = 0;
  candidates.forEach((k, i) => {
    if ((exact[i] ?? -Infinity) >= peak - tolerance) last = k;
  });
  return last === n - 1 ? 0 : last;
}

/** Mean of `values[from..to)`, summed left to right from 0. */
function windowMean(values: readonly number[], from: number, to: number): number {
  let sum = 0;
  for (let k = from; k < to; k++) sum += values[k] ?? 0;
  return sum / (to - from);
}
