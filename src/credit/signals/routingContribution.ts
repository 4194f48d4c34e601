/**
 * Exact routing credit when every expert's expected reward `q_k` is known (credit-methods.md §3.4,
 * §3.5; oracle E5): the system value, the value without each expert, each expert's marginal
 * contribution, and the winner-take-all expected signal. `probs` and `quality` are aligned by expert
 * index; a length mismatch is a programmer error and throws. NaN in either input propagates.
 */

/**
 * The system value `V = Σ_k p_k q_k` (§3.4): the expected reward delivered by a router with selection
 * probabilities `probs` over experts of expected rewards `quality` (reward units, e.g. success rate).
 * Returns NaN for zero experts (there is no router to value).
 */
export function routingValue(probs: ArrayLike<number>, quality: ArrayLike<number>): number {
  checkAligned(probs, quality);
  if (probs.length === 0) return NaN;
  let value = 0;
  for (let k = 0; k < probs.length; k++) value += at(probs, k) * at(quality, k);
  return value;
}

/**
 * The system value with expert `i` removed and the softmax renormalised over the rest
 * (`p_k / (1 − p_i)`, softmax's independence of irrelevant alternatives; §3.4):
 * `V_{−i} = Σ_{k≠i} p_k q_k / (1 − p_i)`. An expert with `p_i = 1` leaves no one to route to:
 * `V_{−i}` is NaN.
 */
export function routingValuesWithout(probs: ArrayLike<number>, quality: ArrayLike<number>): Float64Array {
  checkAligned(probs, quality);
  const n = probs.length;
  const without = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = at(probs, i);
    without[i] = p === 1 ? NaN : othersValue(probs, quality, i) / (1 - p);
  }
  return without;
}

/**
 * Routing marginal contributions `MC_i = V − V_{−i} = p_i (q_i − V_{−i})` (§3.4): selection
 * probability × advantage over what the system would deliver without the expert. Not efficient
 * (Σ MC ≠ V). An expert that is never selected (`p_i = 0`) gets exactly 0; `p_i = 1` gives NaN
 * (removing the only routed expert is undefined). In E5, `p = (0.7, 0.3)`, `q = (0.5, 0.9)` gives
 * `(−0.28, 0.12)`.
 */
export function routingMarginalContributions(probs: ArrayLike<number>, quality: ArrayLike<number>): Float64Array {
  checkAligned(probs, quality);
  const n = probs.length;
  const contributions = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = at(probs, i);
    if (p === 0) continue;
    contributions[i] = p === 1 ? NaN : p * at(quality, i) - (p / (1 - p)) * othersValue(probs, quality, i);
  }
  return contributions;
}

/**
 * The winner-take-all expected signal `E[1{sel=i} R] = p_i q_i` (§3.5): what selection-gated
 * training feeds each expert on average. It conflates "gets selected" with "is good": in E5 the
 * worse expert gets the larger signal (0.35 vs 0.27).
 */
export function winnerTakeAllExpected(probs: ArrayLike<number>, quality: ArrayLike<number>): Float64Array {
  checkAligned(probs, quality);
  const expected = new Float64Array(probs.length);
  for (let k = 0; k < probs.length; k++) expected[k] = at(probs, k) * at(quality, k);
  return expected;
}

// Summed directly rather than as V − p_i q_i, which would cancel catastrophically when p_i q_i ≈ V.
function othersValue(probs: ArrayLike<number>, quality: ArrayLike<number>, i: number): number {
  let sum = 0;
  for (let k = 0; k < probs.length; k++) if (k !== i) sum += at(probs, k) * at(quality, k);
  return sum;
}

function checkAligned(probs: ArrayLike<number>, quality: ArrayLike<number>): void {
  if (probs.length !== quality.length) {
    throw new RangeError(`probs (${probs.length}) and quality (${quality.length}) must have one entry per expert`);
  }
}

function at(values: ArrayLike<number>, k: number): number {
  return values[k] ?? NaN;
}
