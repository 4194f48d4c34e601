import { studentTUpperTail } from '../game/studentT';

/**
 * Spearman's rank correlation of paired samples, with a two-sided p value (credit-methods.md §5.3
 * trend test). `rho` is Pearson's correlation of the ranks, with tied values given their average
 * rank; `p = 2·P(T_{n−2} > |t|)` with `t = rho·√((n − 2)/(1 − rho²))` (the t approximation; |rho| = 1
 * gives p = 0). `n` counts the pairs where both values are finite; other pairs are skipped. With
 * n < 4 the test has no power and p = 1; a constant `x` or `y` (or n < 2) gives rho NaN and p = 1.
 * `x` and `y` must be aligned (a programmer error throws RangeError). O(n log n).
 */
export function spearman(x: readonly number[], y: readonly number[]): { rho: number; p: number; n: number } {
  if (x.length !== y.length) throw new RangeError(`x (${x.length}) and y (${y.length}) must be aligned`);
  const kept = x.flatMap((xi, k) => (Number.isFinite(xi) && Number.isFinite(y[k]) ? [k] : []));
  const n = kept.length;
  const rho = pearson(averageRanks(kept.map((k) => x[k] ?? NaN)), averageRanks(kept.map((k) => y[k] ?? NaN)));
  if (n < 4 || Number.isNaN(rho)) return { rho, p: 1, n };
  if (Math.abs(rho) >= 1) return { rho, p: 0, n };
  const t = Math.abs(rho) * Math.sqrt((n - 2) / (1 - rho * rho));
  return { rho, p: Math.min(1, 2 * studentTUpperTail(t, n - 2)), n };
}

/** Ranks 1 … n of `values`, ties sharing the average of the ranks they span. */
function averageRanks(values: readonly number[]): Float64Array {
  const order = values.map((_, k) => k).sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0));
  const ranks = new Float64Array(values.length);
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && values[order[end] ?? 0] === values[order[start] ?? 0]) end++;
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k] ?? 0] = rank;
    start = end;
  }
  return ranks;
}

/** Pearson correlation; NaN when either side is constant or there are fewer than two values. */
function pearson(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  if (n < 2) return NaN;
  const meanA = a.reduce((s, v) => s + v, 0) / n;
  const meanB = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let k = 0; k < n; k++) {
    const da = (a[k] ?? 0) - meanA;
    const db = (b[k] ?? 0) - meanB;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa === 0 || sbb === 0 ? NaN : Math.max(-1, Math.min(1, sab / Math.sqrt(saa * sbb)));
}
