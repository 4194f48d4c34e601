/**
 * Marginal contributions along one order of arrival (credit-methods.md §3.8):
 * `marginal_i(π) = v(Pre_i(π) ∪ {i}) − v(Pre_i(π))`, where `Pre_i(π)` is the set of agents before
 * `i` in `order`. The marginals telescope, so they sum to `v(N) − v(∅)` (up to float rounding), and
 * the Shapley value is their mean over all `n!` orders.
 *
 * Calls `value` once for `∅` and once per prefix (`n + 1` calls); memoise `value` to share
 * evaluations across orders. Coalitions are `bigint` masks (bit `i` = agent `i`), so any `n` works.
 *
 * @param order - a permutation of `0 .. n−1` (not checked here; `shapleyMonteCarlo` checks its input).
 * @param value - the characteristic function `v`, given a coalition bitmask.
 * @param out - optional output of length `n`, overwritten; a new array is returned otherwise.
 * @returns marginals indexed by agent (not by position), in the units of `v`. A NaN value makes the
 *   two marginals it enters NaN.
 */
export function permutationMarginals(
  order: ArrayLike<number>,
  value: (mask: bigint) => number,
  out: Float64Array = new Float64Array(order.length),
): Float64Array {
  let mask = 0n;
  let before = value(mask);
  for (let k = 0; k < order.length; k++) {
    const agent = order[k] as number;
    mask |= 1n << BigInt(agent);
    const after = value(mask);
    out[agent] = after - before;
    before = after;
  }
  return out;
}

/** The coalitions one order walks, as {@link permutationMarginals} asks for them: ∅, {π₁}, {π₁, π₂}, …, N. */
export function prefixMasks(order: ArrayLike<number>): bigint[] {
  const masks = [0n];
  let mask = 0n;
  for (let k = 0; k < order.length; k++) {
    mask |= 1n << BigInt(order[k] as number);
    masks.push(mask);
  }
  return masks;
}
