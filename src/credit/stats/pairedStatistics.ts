import { normalQuantile } from './normalQuantile';

/** A two-sided interval `[lower, upper]`. */
export type Interval = readonly [lower: number, upper: number];

/** Summary of paired per-episode differences `d_e = R_e − R_e^{(−i)}` over an audit window. */
export interface PairedStatistics {
  /** Number of differences used (NaN entries skipped). */
  readonly n: number;
  readonly mean: number;
  /** Sample standard deviation (ddof = 1). */
  readonly sd: number;
  /** Standard error of the mean, `sd/√n`. */
  readonly se: number;
  /** Normal-approximation 90% interval (the TOST interval of the idle verdict). */
  readonly ci90: Interval;
  /** Normal-approximation 95% interval (the contributes / harmful verdicts). */
  readonly ci95: Interval;
}

/**
 * Mean, sample sd (ddof 1), standard error and normal-approximation 90% / 95% intervals of paired
 * differences (credit-methods.md §5.3; oracle E13), in the units of the differences (reward units).
 * Pairing matters: pass `d_e = R_e − R_e^{(−i)}` per episode, never two independent success rates.
 * NaN entries (a missing counterfactual) are skipped. With no values every field but `n` is NaN;
 * with one value the mean is defined and sd, se and the intervals are NaN. For fewer than 20
 * prompts §5.3 prefers a t-interval or the cluster bootstrap; this is the large-sample interval.
 * E13: 3 × (+1), 1 × (−1), 96 × 0 → mean 0.02, sd 0.2, 90% CI (−0.012897, 0.052897).
 */
export function pairedStatistics(differences: ArrayLike<number>): PairedStatistics {
  let n = 0;
  let sum = 0;
  for (let e = 0; e < differences.length; e++) {
    const d = differences[e] ?? NaN;
    if (Number.isNaN(d)) continue;
    n++;
    sum += d;
  }
  const mean = n === 0 ? NaN : sum / n;
  let sumSquares = 0;
  for (let e = 0; e < differences.length; e++) {
    const d = differences[e] ?? NaN;
    if (!Number.isNaN(d)) sumSquares += (d - mean) ** 2;
  }
  const sd = n < 2 ? NaN : Math.sqrt(sumSquares / (n - 1));
  const se = sd / Math.sqrt(n);
  return { n, mean, sd, se, ci90: normalInterval(mean, se, 0.9), ci95: normalInterval(mean, se, 0.95) };
}

/**
 * The two-sided normal-approximation interval `mean ± z·se` with `z = Φ⁻¹(1 − (1 − confidence)/2)`
 * (z = 1.644854 at 0.90, 1.959964 at 0.95). `confidence` must be in (0, 1) (a programmer error
 * throws RangeError); NaN inputs give a NaN interval.
 */
export function normalInterval(mean: number, se: number, confidence: number): Interval {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const half = normalQuantile(1 - (1 - confidence) / 2) * se;
  return [mean - half, mean + half];
}
