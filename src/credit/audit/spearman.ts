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
  const [xs, ys] = finitePairs(x, y);
  const n = xs.length;
  const rho = pearson(averageRanks(xs), averageRanks(ys));
  if (n < 4 || Number.isNaN(rho)) return { rho, p: 1, n };
  if (Math.abs(rho) >= 1) return { rho, p: 0, n };
  const t = Math.abs(rho) * Math.sqrt((n - 2) / (1 - rho * rho));
  return { rho, p: Math.min(1, 2 * studentTUpperTail(t, n - 2)), n };
}

/** The pairs where both values are finite, as two aligned arrays. */
function finitePairs(x: readonly number[], y: readonly number[]): [Float64Array, Float64Array] {
  const xs = new Float64Array(x.length);
  const ys = new Float64Array(x.length);
  let n = 0;
  for (let k = 0; k < x.length; k++) {
    const a = x[k] ?? NaN;
    const b = y[k] ?? NaN;
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    xs[n] = a;
    ys[n++] = b;
  }
  return [xs.subarray(0, n), ys.subarray(0, n)];
}

/**
 * Ranks 1 … n of `values`, ties sharing the average of the ranks they span: a value's ties occupy
 * sorted positions [lo, hi), so its rank is (lo + 1 + hi) / 2. The typed array's own numeric sort
 * (no comparator call per comparison) and two binary searches per value: the sign-disagreement
 * tally ranks every (step, agent) of a credit pass, 390,000 samples for the 1 GB run.
 */
function averageRanks(values: Float64Array): Float64Array {
  const sorted = values.slice().sort();
  const ranks = new Float64Array(values.length);
  for (let k = 0; k < values.length; k++) {
    const v = values[k] ?? 0;
    ranks[k] = (countBelow(sorted, v, false) + 1 + countBelow(sorted, v, true)) / 2;
  }
  return ranks;
}

/** How many values of `sorted` are below v, or (`orEqual`) at most v; −0 and 0 compare equal, as ties. */
function countBelow(sorted: Float64Array, v: number, orEqual: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = sorted[mid] ?? 0;
    if (x < v || (orEqual && x === v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
