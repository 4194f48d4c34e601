import { incompleteBeta, logGamma } from './incompleteBeta';

/**
 * Upper tail `P(T > t)` of Student's t distribution with `df` degrees of freedom, for `t ≥ 0`:
 * `½ · I_{df/(df+t²)}(df/2, ½)`. Accurate to about 1e-14 relative.
 *
 * @returns a probability in [0, ½]; NaN for NaN input, negative `t` or `df ≤ 0`.
 */
export function studentTUpperTail(t: number, df: number): number {
  if (!(t >= 0 && df > 0)) return NaN;
  if (t === Infinity) return 0;
  const t2 = t * t;
  return 0.5 * incompleteBeta(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
}

/**
 * Density of Student's t distribution with `df` degrees of freedom at `t`.
 *
 * @returns a non-negative density; NaN for NaN input or `df ≤ 0`.
 */
export function studentTDensity(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return NaN;
  const logNorm = logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  return Math.exp(logNorm - ((df + 1) / 2) * Math.log1p((t * t) / df));
}
