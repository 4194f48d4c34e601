/**
 * The standard normal distribution for confidence intervals and sample sizes (credit-methods.md
 * §5.2, §5.3): a CDF accurate to about 1e-15 relative, and Acklam's quantile refined by one Halley
 * step against that CDF (absolute error below 1e-9 over (0, 1), about 1e-15 in the centre).
 */

const sqrt2Pi = Math.sqrt(2 * Math.PI);

/**
 * The standard normal CDF `Φ(x) = P(Z ≤ x)`, in [0, 1]. Uses Marsaglia's positive-term series
 * `Φ(x) = ½ + φ(x)(x + x³/3 + x⁵/15 + …)` for |x| < 3 and the Laplace continued fraction for the
 * tail beyond, so small tail probabilities keep their relative precision. NaN gives NaN; ±Infinity
 * gives 1 / 0.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  return x <= 0 ? lowerTail(-x) : 1 - lowerTail(x);
}

/**
 * The standard normal quantile `Φ⁻¹(p)` (probit): `normalQuantile(0.975) = 1.959963984540054`,
 * `normalQuantile(0.95) = 1.6448536269514722`. Acklam's rational approximation (relative error
 * 1.15e-9) followed by one Halley refinement step. `p = 0` gives −Infinity, `p = 1` Infinity, and
 * NaN or `p` outside [0, 1] gives NaN. Symmetric by construction: `Φ⁻¹(1 − p) = −Φ⁻¹(p)` (for
 * p ≥ ½, `1 − p` is computed exactly).
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  return p > 0.5 ? -lowerQuantile(1 - p) : lowerQuantile(p);
}

// Acklam's coefficients (P. J. Acklam, "An algorithm for computing the inverse normal cumulative
// distribution function", 2003).
const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1, 1];
const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416, 1];

/** Quantile for p in (0, ½]: Acklam's approximation, then one Halley step. */
function lowerQuantile(p: number): number {
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = polynomial(c, q) / polynomial(d, q);
  } else {
    const q = p - 0.5;
    x = (polynomial(a, q * q) * q) / polynomial(b, q * q);
  }
  const e = lowerTail(-x) - p;
  const u = e * sqrt2Pi * Math.exp((x * x) / 2);
  const refined = x - u / (1 + (x * u) / 2);
  // exp(x²/2) overflows for p below about 1e-308; Acklam's value is then the best available.
  return Number.isFinite(refined) ? refined : x;
}

/** `Φ(−t)` for t ≥ 0. */
function lowerTail(t: number): number {
  if (t === Infinity) return 0;
  const density = Math.exp((-t * t) / 2) / sqrt2Pi;
  if (t < 3) return 0.5 - density * marsagliaSeries(t);
  // Φ(−t) = φ(t) / (t + 1/(t + 2/(t + 3/(t + …)))), evaluated from the tail end.
  let fraction = t;
  for (let k = 120; k >= 1; k--) fraction = t + k / fraction;
  return density / fraction;
}

function marsagliaSeries(t: number): number {
  let term = t;
  let sum = t;
  for (let k = 1; term > sum * 1e-17; k++) {
    term *= (t * t) / (2 * k + 1);
    sum += term;
  }
  return sum;
}

/** Horner evaluation of `coefficients` (highest degree first). */
function polynomial(coefficients: readonly number[], x: number): number {
  return coefficients.reduce((value, coefficient) => value * x + coefficient, 0);
}
