/**
 * The Shapley weights `w[s] = s! (n − s − 1)! / n!` for coalition sizes `s = 0 .. n−1`
 * (credit-methods.md §3.7): the probability that, in a uniform random order of `n` players, a given
 * player is preceded by one particular coalition of size `s`. Computed as `1 / (n · C(n−1, s))`,
 * which is exact in doubles for every `n` this module accepts. Called with `n − 1` it gives the
 * interaction-index weights `s! (n − s − 2)! / (n − 1)!`.
 *
 * @param n - number of players, a non-negative integer; `n = 0` gives an empty array.
 */
export function shapleyWeights(n: number): Float64Array {
  const weights = new Float64Array(Math.max(0, n));
  let binomial = 1;
  for (let s = 0; s < n; s++) {
    weights[s] = 1 / (n * binomial);
    binomial = (binomial * (n - 1 - s)) / (s + 1);
  }
  return weights;
}
