/**
 * COMA-style counterfactual baseline over an enumerable menu of an agent's alternatives
 * (credit-methods.md §3.9, form (b); oracle E8): `b_i = Σ_k w_k Q_k` with self-normalised weights
 * `w_k = π_k / Σ π`, where `policy[k]` is the agent's (sequence) probability of option k and
 * `q[k]` the reward with the other agents' actions fixed. Probabilities need not sum to 1 (a
 * truncated menu is renormalised: consistent, slightly biased). For form (a), K resamples of the
 * agent's own policy, pass equal weights. NaN when the menu is empty, the weights sum to 0, or an
 * entry is NaN. `policy` and `q` must be aligned (a programmer error throws RangeError).
 */
export function comaBaseline(policy: ArrayLike<number>, q: ArrayLike<number>): number {
  if (policy.length !== q.length)
    throw new RangeError(`policy (${policy.length}) and q (${q.length}) must have one entry per option`);
  let weight = 0;
  let value = 0;
  for (let k = 0; k < policy.length; k++) {
    const w = policy[k] ?? NaN;
    weight += w;
    value += w * (q[k] ?? NaN);
  }
  return weight === 0 ? NaN : value / weight;
}

/**
 * COMA counterfactual advantages `A(k) = Q_k − b_i` for every option of the menu (§3.9), in reward
 * units. They average to 0 under the (normalised) policy: `Σ_k w_k A(k) = 0`. E8: `π = (0.5, 0.3,
 * 0.2)`, `Q = (1, 0, 0.5)` → baseline 0.6, `A = (0.4, −0.6, −0.1)`.
 */
export function comaAdvantages(policy: ArrayLike<number>, q: ArrayLike<number>): Float64Array {
  const baseline = comaBaseline(policy, q);
  const advantages = new Float64Array(q.length);
  for (let k = 0; k < q.length; k++) advantages[k] = (q[k] ?? NaN) - baseline;
  return advantages;
}
