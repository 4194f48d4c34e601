import { normalQuantile } from '../stats/normalQuantile';
import { studentTDensity, studentTUpperTail } from './studentT';

/**
 * Quantile `t_{p, df}` of Student's t distribution, `P(T ≤ t) = p`: the multiplier of the
 * Monte-Carlo confidence interval `φ̂ ± t_{(1+c)/2, M−1} · SE` (credit-methods.md §3.8).
 *
 * Closed forms for `df = 1` (Cauchy) and `df = 2`; otherwise Hill's approximation (Algorithm 396,
 * CACM 1970) refined by safeguarded Newton steps on the exact tail (incomplete beta), so the result
 * is accurate to about 1e-10 relative, far inside the 1e-6 the CI needs. Above `df = 1e4` a
 * four-term Cornish–Fisher expansion around the normal quantile is used (error below 1e-10 for
 * `p` in [1e-10, 1 − 1e-10]), because the incomplete beta loses digits for huge shapes. Non-integer
 * `df` is allowed.
 *
 * @param p - probability in [0, 1]; `0` and `1` give ∓Infinity, `½` gives 0.
 * @param df - degrees of freedom, > 0 (Infinity gives the normal quantile).
 * @returns the quantile; NaN for NaN, `p` outside [0, 1], or `df ≤ 0`.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1 && df > 0)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  const upper = p > 0.5;
  const tailProbability = upper ? 1 - p : p;
  const t = upperQuantile(tailProbability, df);
  return upper ? t : -t;
}

/** The `t ≥ 0` with `P(T > t) = q`, for `0 < q < ½`. */
function upperQuantile(q: number, df: number): number {
  if (df === 1) return 1 / Math.tan(Math.PI * q);
  if (df === 2) return (1 - 2 * q) / Math.sqrt(2 * q * (1 - q));
  if (df > 1e4) return cornishFisher(-normalQuantile(q), df);
  return refine(hill(2 * q, df), q, df);
}

/** Hill (1970), Algorithm 396: `t` with two-sided tail probability `p2 = P(|T| > t)`. */
function hill(p2: number, df: number): number {
  const a = 1 / (df - 0.5);
  const b = 48 / (a * a);
  let c = (((20700 * a) / b - 98) * a - 16) * a + 96.36;
  const d = ((94.5 / (b + c) - 3) / b + 1) * Math.sqrt((a * Math.PI) / 2) * df;
  let y = (d * p2) ** (2 / df);
  if (y > 0.05 + a) {
    const x = normalQuantile(0.5 * p2);
    y = x * x;
    if (df < 5) c += 0.3 * (df - 4.5) * (x + 0.6);
    c = (((0.05 * d * x - 5) * x - 7) * x - 2) * x + b + c;
    y = (((((0.4 * y + 6.3) * y + 36) * y + 94.5) / c - y - 3) / b + 1) * x;
    y = Math.expm1(a * y * y);
  } else {
    y =
      ((1 / (((df + 6) / (df * y) - 0.089 * d - 0.822) * (df + 2) * 3) + 0.5 / (df + 4)) * y - 1) *
        ((df + 1) / (df + 2)) +
      1 / y;
  }
  return Math.sqrt(df * y);
}

/** Newton's method on `P(T > t) = q`, kept inside a shrinking bracket (bisection when it leaves). */
function refine(start: number, q: number, df: number): number {
  let lo = 0;
  let hi = Infinity;
  let t = Number.isFinite(start) && start > 0 ? start : 1;
  for (let iteration = 0; iteration < 100; iteration++) {
    const excess = studentTUpperTail(t, df) - q;
    if (excess === 0) return t;
    if (excess > 0) lo = t;
    else hi = t;
    let next = t + excess / studentTDensity(t, df);
    if (!(next > lo && next < hi)) next = hi === Infinity ? 2 * t : (lo + hi) / 2;
    if (Math.abs(next - t) <= 1e-15 * t) return next;
    t = next;
  }
  return t;
}

/** Cornish–Fisher expansion of the t quantile in powers of `1/df` (Abramowitz & Stegun 26.7.5). */
function cornishFisher(z: number, df: number): number {
  const z2 = z * z;
  const g1 = (z * (z2 + 1)) / 4;
  const g2 = (z * ((5 * z2 + 16) * z2 + 3)) / 96;
  const g3 = (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / 384;
  const g4 = (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / 92160;
  return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}
