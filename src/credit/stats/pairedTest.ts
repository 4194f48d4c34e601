import type { PairedDifference, PairedTest } from '../../core/runComparison';
import { studentTUpperTail } from '../game/studentT';
import { studentTQuantile } from '../game/studentTQuantile';
import { normalCdf, normalQuantile } from './normalQuantile';
import { pairedStatistics } from './pairedStatistics';

/** Pairs at which the comparison switches from Student's t to the normal approximation (credit-methods.md §5.5). */
export const normalFromPairs = 30;

/**
 * The paired difference `B − A` of two aligned series (credit-methods.md §5.5): the pairs where both
 * values are finite, their means, the mean difference `d̄`, its two-sided 95% interval and the
 * two-sided p-value of "no difference". Below {@link normalFromPairs} pairs: Student's t with
 * `n − 1` df, `d̄ ± t_{0.975, n−1} · s_d/√n`, `p = 2 · P(T_{n−1} > |d̄|/(s_d/√n))`; at 30 and above the
 * normal `z` in place of `t`. A pair with a NaN or infinite side is skipped. No pair: every number
 * NaN; one pair: the means and `d̄` are defined, interval and p NaN. Zero spread (every difference
 * equal): the interval is `[d̄, d̄]` and p is 1 when `d̄ = 0`, else 0. Series of unequal length are
 * read up to the shorter.
 */
export function pairedDifference(a: ArrayLike<number>, b: ArrayLike<number>): PairedDifference {
  const differences: number[] = [];
  let sumA = 0;
  let sumB = 0;
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const x = a[k] ?? NaN;
    const y = b[k] ?? NaN;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    differences.push(y - x);
    sumA += x;
    sumB += y;
  }
  const n = differences.length;
  const stats = pairedStatistics(differences);
  return {
    n,
    meanA: n === 0 ? NaN : sumA / n,
    meanB: n === 0 ? NaN : sumB / n,
    ...meanTest(stats.mean, stats.se, n),
  };
}

/**
 * The difference `B − A` of two ratios of means `r = Σy/Σx` over the same pairs (an agent's share of
 * the positive credit: y its positive credit, x the team's), with a delta-method interval
 * (credit-methods.md §5.5): each pair's linearised value `z_e = (y_e − r·x_e)/x̄` on each side, and
 * the paired test of `z_B − z_A` centred on `r_B − r_A`. `meanA`/`meanB` are the ratios. Pairs with
 * a non-finite value are skipped; a side whose Σx is not positive gives NaN ratios and a NaN test.
 */
export function pairedRatioDifference(
  a: { readonly y: ArrayLike<number>; readonly x: ArrayLike<number> },
  b: { readonly y: ArrayLike<number>; readonly x: ArrayLike<number> },
): PairedDifference {
  const kept: number[] = [];
  const length = Math.min(a.y.length, a.x.length, b.y.length, b.x.length);
  for (let k = 0; k < length; k++)
    if ([a.y[k], a.x[k], b.y[k], b.x[k]].every((v) => Number.isFinite(v ?? NaN))) kept.push(k);
  const ratioA = ratioOfMeans(a, kept);
  const ratioB = ratioOfMeans(b, kept);
  const n = kept.length;
  if (!(ratioA.meanX > 0 && ratioB.meanX > 0))
    return { n, meanA: ratioA.ratio, meanB: ratioB.ratio, ...meanTest(NaN, NaN, n) };
  const linearised = kept.map((k) => linear(b, k, ratioB) - linear(a, k, ratioA));
  const { se } = pairedStatistics(linearised);
  return { n, meanA: ratioA.ratio, meanB: ratioB.ratio, ...meanTest(ratioB.ratio - ratioA.ratio, se, n) };
}

interface Ratio {
  readonly ratio: number;
  readonly meanX: number;
}

function ratioOfMeans(side: { readonly y: ArrayLike<number>; readonly x: ArrayLike<number> }, kept: number[]): Ratio {
  let sumY = 0;
  let sumX = 0;
  for (const k of kept) {
    sumY += side.y[k] ?? 0;
    sumX += side.x[k] ?? 0;
  }
  const meanX = kept.length === 0 ? NaN : sumX / kept.length;
  return { ratio: sumX > 0 ? sumY / sumX : NaN, meanX };
}

function linear(side: { readonly y: ArrayLike<number>; readonly x: ArrayLike<number> }, k: number, r: Ratio): number {
  return ((side.y[k] ?? 0) - r.ratio * (side.x[k] ?? 0)) / r.meanX;
}

/** Interval and p of a mean `difference` with standard error `se` over `n` pairs (t below 30 pairs). */
function meanTest(
  difference: number,
  se: number,
  n: number,
): Pick<PairedDifference, 'difference' | 'interval' | 'p' | 'test'> {
  const test: PairedTest = n >= normalFromPairs ? 'normal' : 't';
  if (n < 2 || Number.isNaN(difference) || Number.isNaN(se)) return { difference, interval: [NaN, NaN], p: NaN, test };
  if (se === 0) return { difference, interval: [difference, difference], p: difference === 0 ? 1 : 0, test };
  const statistic = Math.abs(difference) / se;
  const quantile = test === 't' ? studentTQuantile(0.975, n - 1) : normalQuantile(0.975);
  const p = test === 't' ? 2 * studentTUpperTail(statistic, n - 1) : 2 * normalCdf(-statistic);
  return { difference, interval: [difference - quantile * se, difference + quantile * se], p: Math.min(1, p), test };
}
