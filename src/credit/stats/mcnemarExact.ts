/**
 * Exact two-sided McNemar test on paired binary rewards (credit-methods.md §5.3; oracle E13):
 * `p = min(1, 2·Σ_{k ≤ min(b,c)} C(b+c, k)/2^{b+c})`, where `b = #(R = 1, R^{(−i)} = 0)` (only with
 * the agent succeeds) and `c = #(R = 0, R^{(−i)} = 1)`. Concordant pairs do not enter. Returns 1 when
 * there are no discordant pairs. E13: b = 3, c = 1 → 0.625. Summed in log space, so large counts do
 * not underflow. Counts that are not non-negative integers are a programmer error (RangeError).
 */
export function mcnemarExact(b: number, c: number): number {
  for (const count of [b, c]) {
    if (!Number.isSafeInteger(count) || count < 0)
      throw new RangeError(`discordant counts must be non-negative integers, got ${count}`);
  }
  const n = b + c;
  const k = Math.min(b, c);
  // log C(n, j) built up term by term; the tail sum is taken relative to its largest term (j = k).
  const logTerms: number[] = [];
  let logBinomial = 0;
  for (let j = 0; j <= k; j++) {
    if (j > 0) logBinomial += Math.log((n - j + 1) / j);
    logTerms.push(logBinomial);
  }
  const largest = logBinomial;
  const tail = logTerms.reduce((sum, t) => sum + Math.exp(t - largest), 0);
  return Math.min(1, 2 * Math.exp(largest - n * Math.LN2) * tail);
}

/**
 * Discordant-pair counts of paired binary rewards: `b = #(factual 1, counterfactual 0)`,
 * `c = #(factual 0, counterfactual 1)`, and `n`, the number of pairs where both are 0 or 1. Pairs
 * with another value (NaN, partial credit) are skipped. The arrays must be aligned per episode (a
 * programmer error throws RangeError).
 */
export function discordantCounts(
  factual: ArrayLike<number>,
  counterfactual: ArrayLike<number>,
): { b: number; c: number; n: number } {
  if (factual.length !== counterfactual.length)
    throw new RangeError(`factual (${factual.length}) and counterfactual (${counterfactual.length}) must be aligned`);
  let b = 0;
  let c = 0;
  let n = 0;
  for (let e = 0; e < factual.length; e++) {
    const r = factual[e];
    const rc = counterfactual[e];
    if ((r !== 0 && r !== 1) || (rc !== 0 && rc !== 1)) continue;
    n++;
    if (r > rc) b++;
    else if (r < rc) c++;
  }
  return { b, c, n };
}
