/**
 * Each agent's share of the positive credit in one episode or window (credit-methods.md §5.2 sole
 * performer, §5.3 trend): `max(0, c_i) / Σ_j max(0, c_j)`, in [0, 1] and summing to 1. Negative
 * (harmful) credit counts as 0 rather than inflating the others' shares; NaN credit counts as 0.
 * All credit ≤ 0 (or NaN), an infinite total, or no agents → all zeros. With conserved credit (Σφ = R, no negative φ)
 * this is §5.2's Shapley share `φ̄_j / R̄`.
 */
export function creditShares(credit: readonly number[]): Float64Array {
  const positive = Float64Array.from(credit, (c) => (c > 0 ? c : 0));
  const total = positive.reduce((sum, c) => sum + c, 0);
  if (total > 0 && Number.isFinite(total))
    for (let k = 0; k < positive.length; k++) positive[k] = (positive[k] ?? 0) / total;
  else positive.fill(0);
  return positive;
}

/**
 * Whether agent `index` is the sole performer (credit-methods.md §5.2): its share is at least
 * `threshold` (default 0.9), e.g. the partner of an idle agent. An index outside `shares`, or a NaN
 * share, is not dominant.
 */
export function isDominant(shares: ArrayLike<number>, index: number, threshold = 0.9): boolean {
  return (shares[index] ?? NaN) >= threshold;
}
