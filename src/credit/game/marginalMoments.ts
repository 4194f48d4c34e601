/**
 * Running mean and variance of per-agent marginal contributions over sampled permutations (Welford's
 * algorithm), for the Monte-Carlo Shapley standard errors of credit-methods.md §3.8. A sample is
 * whatever the design's sampling unit is: one permutation, an antithetic pair mean or a rotation
 * block mean.
 */
export class MarginalMoments {
  /** Number of samples added. */
  count = 0;
  /** Running mean per agent. */
  readonly mean: Float64Array;
  private readonly squares: Float64Array;

  constructor(n: number) {
    this.mean = new Float64Array(n);
    this.squares = new Float64Array(n);
  }

  /** Adds one sample: a vector of marginals indexed by agent. */
  add(sample: Float64Array): void {
    this.count++;
    for (let i = 0; i < this.mean.length; i++) {
      const x = sample[i] as number;
      const before = this.mean[i] as number;
      const after = before + (x - before) / this.count;
      this.mean[i] = after;
      this.squares[i] = (this.squares[i] as number) + (x - before) * (x - after);
    }
  }

  /** Sample variance of agent `i`'s samples (ddof = 1); NaN with fewer than two samples. */
  variance(i: number): number {
    if (this.count < 2) return NaN;
    return (this.squares[i] as number) / (this.count - 1);
  }

  /** True when agent `i` has at least two samples and all of them are equal (sum of squares 0). */
  tied(i: number): boolean {
    return this.count >= 2 && this.squares[i] === 0;
  }

  /**
   * Standard error of the mean of agent `i`: `sd / sqrt(count)` with the sample standard deviation
   * (ddof = 1). NaN with fewer than two samples.
   */
  stderr(i: number): number {
    return Math.sqrt(this.variance(i) / this.count);
  }
}
