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
    ((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r +
      13731.693765509461125) * r + 1971.5909503065514427) * r + 133.14166789178437745) * r + 3.387132872796366608;
  const den =
    ((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r +
      5394.1960214247511077) * r + 687.1870074920579083) * r + 42.313330701600911252) * r + 1;
  return num / den;
}

function intermediate(r: number): number {
  const num =
    ((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r +
      3.64784832476320460504) * r + 5.7694972214606914055) * r + 4.6303378461565452959) * r + 1.42343711074968357734;
  const den =
    ((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r +
      0.68976733498510000455) * r + 1.6763848301838038494) * r + 2.05319162663775882187) * r + 1;
  return num / den;
}

function tail(r: number): number {
  const num =
    ((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 1.2426609473880784386e-3) * r + 2.6532189526576123093e-2) * r +
      0.29656057182850489123) * r + 1.7848265399172913358) * r + 5.4637849111641143699) * r + 6.6579046435011037772;
  const den =
    ((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r +
      1.4875361290850614852e-2) * r + 0.13692988092273580531) * r + 0.59983220655588793769) * r + 1;
  return num / den;
}
