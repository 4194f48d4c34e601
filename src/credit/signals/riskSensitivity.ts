/**
 * Risk sensitivity of softmax routing between two experts (credit-methods.md §3.6; oracle E6). The
 * selection probability `p = σ((s − s_opp)/τ)` is convex below ½ and concave above, so by Jensen a
 * mean-preserving spread of the router score raises an underdog's expected selection and lowers a
 * leader's: underdogs are pushed to gamble, leaders to play safe.
 */

/**
 * The probability that the two-expert softmax router selects the expert with score `ownScore`
 * against `opponentScore`: `σ((s − s_opp)/τ)`, in (0, 1), ½ on a tie. `tau` is the softmax
 * temperature, in router-score units; it must be positive (a programmer error throws RangeError).
 */
export function selectionProbability(ownScore: number, opponentScore: number, tau: number): number {
  checkTemperature(tau);
  return logistic((ownScore - opponentScore) / tau);
}

/**
 * The expected selection probability `E[σ((s − s_opp)/τ)]` when the expert's own score is equally
 * likely to be each of `ownScores` (e.g. `[μ − σ, μ + σ]` for a ±σ spread). NaN entries are skipped;
 * NaN when no score remains. E6: scores `[−2, 0]` against 0 at τ = 1 give 0.309601 (vs 0.268941 for
 * the fixed score −1).
 */
export function expectedSelection(ownScores: ArrayLike<number>, opponentScore: number, tau: number): number {
  checkTemperature(tau);
  let sum = 0;
  let count = 0;
  for (let k = 0; k < ownScores.length; k++) {
    const s = ownScores[k];
    if (s === undefined || Number.isNaN(s)) continue;
    sum += logistic((s - opponentScore) / tau);
    count++;
  }
  return count === 0 ? NaN : sum / count;
}

/**
 * The small-noise (second-order Taylor) change in expected selection when a score whose deterministic
 * selection probability is `p` gets variance `scoreVariance` (router-score units squared):
 * `E[p] − p ≈ (σ²/(2τ²))·p(1−p)(1−2p)`. Positive for an underdog (`p < ½`, risk-seeking), negative
 * for a leader, 0 at `p = ½`. E6: p = σ(∓1), σ² = 1, τ = 1 → ±0.045429 (exact: ±0.040660).
 */
export function selectionSpreadEffect(p: number, scoreVariance: number, tau: number): number {
  checkTemperature(tau);
  return (scoreVariance / (2 * tau * tau)) * p * (1 - p) * (1 - 2 * p);
}

// Written in two branches so that neither exp() overflows for large |x|.
function logistic(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

function checkTemperature(tau: number): void {
  if (!(tau > 0)) throw new RangeError(`softmax temperature tau must be positive, got ${tau}`);
}
