/**
 * The standard normal distribution for confidence intervals, sample sizes and t quantiles
 * (credit-methods.md §3.8, §5.2, §5.3): a CDF accurate to about 1e-15 relative, and Wichura's
 * AS 241 quantile (about 1e-16 relative).
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
 * Standard normal quantile `z_p` with `P(Z ≤ z_p) = p`: Wichura's algorithm AS 241 (PPND16, Applied
 * Statistics 37(3), 1988), relative accuracy about 1e-16. Used for the `t` quantiles of the
 * Monte-Carlo confidence intervals (credit-methods.md §3.8).
 *
 * @param p - a probability; `0` gives −Infinity, `1` gives +Infinity, NaN or outside [0, 1] gives NaN.
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) return q * central(0.180625 - q * q);
  const r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  const z = r <= 5 ? intermediate(r - 1.6) : tail(r - 5);
  return q < 0 ? -z : z;
}

function central(r: number): number {
  const num =
    ((((((2509.0809287301227 * r + 33430.57558358813) * r + 67265.7709270087) * r + 45921.95393154987) * r +
      13731.69376550946) *
      r +
      1971.5909503065513) *
      r +
      133.14166789178438) *
      r +
    3.3871328727963665;
  const den =
    ((((((5226.495278852854 * r + 28729.085735721943) * r + 39307.89580009271) * r + 21213.794301586597) * r +
      5394.196021424751) *
      r +
      687.1870074920579) *
      r +
      42.31333070160091) *
      r +
    1;
  return num / den;
}

function intermediate(r: number): number {
  const num =
    ((((((0.0007745450142783414 * r + 0.022723844989269184) * r + 0.2417807251774506) * r + 1.2704582524523684) * r +
      3.6478483247632045) *
      r +
      5.769497221460691) *
      r +
      4.630337846156546) *
      r +
    1.4234371107496835;
  const den =
    ((((((1.0507500716444169e-9 * r + 0.0005475938084995345) * r + 0.015198666563616457) * r + 0.14810397642748008) *
      r +
      0.6897673349851) *
      r +
      1.6763848301838038) *
      r +
      2.053191626637759) *
      r +
    1;
  return num / den;
}

function tail(r: number): number {
  const num =
    ((((((2.0103343992922881e-7 * r + 0.000027115555687434876) * r + 0.0012426609473880784) * r +
      0.026532189526576124) *
      r +
      0.29656057182850487) *
      r +
      1.7848265399172913) *
      r +
      5.463784911164114) *
      r +
    6.657904643501103;
  const den =
    ((((((2.0442631033899397e-15 * r + 1.421511758316446e-7) * r + 0.000018463183175100548) * r +
      0.0007868691311456133) *
      r +
      0.014875361290850615) *
      r +
      0.1369298809227358) *
      r +
      0.599832206555888) *
      r +
    1;
  return num / den;
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
