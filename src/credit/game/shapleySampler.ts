import { MarginalMoments } from './marginalMoments';
import type { PermutationDesign } from './permutationDesign';
import { permutationMarginals } from './permutationMarginals';
import { studentTQuantile } from './studentTQuantile';

/** Point estimates and t intervals of Monte-Carlo Shapley values, indexed by agent. */
export interface SampledEstimate {
  values: Float64Array;
  stderr: Float64Array;
  ciLow: Float64Array;
  ciHigh: Float64Array;
}

/**
 * Accumulates sampling units of permutation Shapley (credit-methods.md §3.8) and turns them into
 * estimates. Shared by the synchronous {@link shapleyMonteCarlo} and the engine's chunked,
 * asynchronous driver, so both compute the same numbers from the same units.
 *
 * φ̂_i is the mean of agent i's marginals over all walked permutations (all units have the same
 * size, so it is also the mean of unit means). Each permutation's marginals telescope, so
 * Σ_i φ̂_i = v(N) − v(∅) exactly (up to float rounding) and a null player gets exactly 0.
 *
 * Standard error: units are independent (the shifts inside a rotation block are not), so
 * `SE_i² = s²_i / units` with `s²_i` the sample variance of agent i's unit means (ddof = 1). The
 * shifts of a block are negatively correlated, which is the variance reduction of the design; a
 * position-stratified estimate `(1/n²) Σ_p s²_{i,p} / B` ignores that and over-covers (BENCHMARKS.md,
 * issue 11), so it is not used.
 *
 * Tied units (all of an agent's unit means equal, e.g. every agent of a unanimity game, whose block
 * mean is v(N)/n in every block) are not proof of zero variance: unseen coalitions may differ. They
 * count as if one unit in `units + 2` had one marginal moved by the observed range of v (a
 * Laplace-style pseudo count): `s²_i = (range(v) / unitSize)² · q(1 − q)`, `q = 1/(units + 2)`. So
 * a sampled estimate never has a zero-width interval unless v looked constant on every coalition
 * walked; exact values (SE 0) come only from a fully enumerated game, handled by the callers.
 */
export class ShapleySampler {
  /** Permutations walked. */
  permutations = 0;
  private readonly moments: MarginalMoments;
  private readonly sample: Float64Array;
  private readonly marginals: Float64Array;
  private size = 1;
  private low = Infinity;
  private high = -Infinity;

  constructor(
    readonly n: number,
    readonly design: PermutationDesign,
  ) {
    this.moments = new MarginalMoments(n);
    this.sample = new Float64Array(n);
    this.marginals = new Float64Array(n);
  }

  /** Sampling units added. */
  get units(): number {
    return this.moments.count;
  }

  /** Walks the orders of one unit on `value` (memoise it) and adds the unit mean. */
  addUnit(orders: readonly Int32Array[], value: (mask: bigint) => number): void {
    this.size = orders.length;
    const tracked = (mask: bigint): number => this.track(value(mask));
    this.sample.fill(0);
    for (const order of orders) {
      permutationMarginals(order, tracked, this.marginals);
      for (let i = 0; i < this.n; i++)
        this.sample[i] = (this.sample[i] as number) + (this.marginals[i] as number) / orders.length;
    }
    this.permutations += orders.length;
    this.moments.add(this.sample);
  }

  /** Standard error of agent i's estimate (see the class comment); NaN with fewer than two units. */
  stderr(i: number): number {
    const units = this.moments.count;
    if (units < 2) return NaN;
    const variance = this.moments.tied(i) ? this.tiedVariance(units) : this.moments.variance(i);
    return Math.sqrt(variance / units);
  }

  /** Largest standard error over agents; NaN if any is NaN, 0 when there are no agents. */
  maxStderr(): number {
    let max = 0;
    for (let i = 0; i < this.n; i++) {
      const se = this.stderr(i);
      if (Number.isNaN(se)) return NaN;
      max = Math.max(max, se);
    }
    return max;
  }

  /** φ̂ with `confidence` t intervals on `units − 1` degrees of freedom; NaN values with no unit. */
  estimate(confidence: number): SampledEstimate {
    const values = this.moments.count === 0 ? new Float64Array(this.n).fill(NaN) : this.moments.mean.slice();
    const multiplier = studentTQuantile((1 + confidence) / 2, this.moments.count - 1);
    const stderr = Float64Array.from(values, (_, i) => this.stderr(i));
    const ciLow = Float64Array.from(values, (phi, i) => phi - multiplier * (stderr[i] as number));
    const ciHigh = Float64Array.from(values, (phi, i) => phi + multiplier * (stderr[i] as number));
    return { values, stderr, ciLow, ciHigh };
  }

  /** `(range(v) / unitSize)² · q(1 − q)` with `q = 1/(units + 2)`: the variance credited to tied unit means. */
  private tiedVariance(units: number): number {
    const shift = this.high >= this.low ? (this.high - this.low) / this.size : 0;
    const q = 1 / (units + 2);
    return shift * shift * q * (1 - q);
  }

  private track(x: number): number {
    if (x < this.low) this.low = x;
    if (x > this.high) this.high = x;
    return x;
  }
}
