/**
 * Per-message credit from prefix values (credit-methods.md §3.12 option 1, PRM / multiturn-aware
 * reward style): `r_t = V(h_t) − V(h_{t−1})`, where `V(h_t)` is the value (success probability) of
 * continuing from the first `t` messages and `V(h_T) = R`. Conserving: Σ r = `V(h_T) − V(h_0)`.
 * Order-dependent (the marginal along the realised order).
 *
 * Index convention: `prefixValues[k] = V(h_k)` for `k = 0 .. T` (`h_0` = the prompt only); the
 * result has `T` entries and `result[j]` (0-based) is the credit of the `(j+1)`-th message, the doc's
 * `r_{j+1} = V(h_{j+1}) − V(h_j)`.
 *
 * @param prefixValues - `V(h_0) .. V(h_T)`, usually in [0, 1].
 * @returns `T = prefixValues.length − 1` differences; empty for fewer than two prefix values. A NaN
 *   prefix value makes the (at most two) differences it enters NaN.
 */
export function prefixValueCredit(prefixValues: ArrayLike<number>): Float64Array {
  const credit = new Float64Array(Math.max(0, prefixValues.length - 1));
  for (let j = 0; j < credit.length; j++) credit[j] = (prefixValues[j + 1] as number) - (prefixValues[j] as number);
  return credit;
}

/**
 * Agent credit as the sum of its messages' credit (credit-methods.md §3.12: "agent credit = Σ of its
 * messages' r_t"; E11: A = +0.4, B = −0.8). Conserves: the agents sum to the messages' sum.
 *
 * @param messageCredit - credit per message.
 * @param authors - author agent index (0 .. nAgents−1) per message, same length as `messageCredit`.
 * @param nAgents - number of agents; agents with no message get 0.
 * @returns credit per agent; a NaN message credit makes its author's total NaN.
 * @throws RangeError when lengths differ, `nAgents` is not a non-negative integer, or an author is
 *   outside `0 .. nAgents−1` (programmer errors: dropping a message would break conservation).
 */
export function agentCreditFromMessages(
  messageCredit: ArrayLike<number>,
  authors: ArrayLike<number>,
  nAgents: number,
): Float64Array {
  if (!Number.isInteger(nAgents) || nAgents < 0)
    throw new RangeError(`agentCreditFromMessages: nAgents must be an integer ≥ 0, got ${nAgents}`);
  if (authors.length !== messageCredit.length) {
    throw new RangeError(
      `agentCreditFromMessages: ${messageCredit.length} message credits but ${authors.length} authors`,
    );
  }
  const credit = new Float64Array(nAgents);
  for (let t = 0; t < authors.length; t++) {
    const author = authors[t] as number;
    if (!Number.isInteger(author) || author < 0 || author >= nAgents) {
      throw new RangeError(`agentCreditFromMessages: author ${author} of message ${t} is outside 0..${nAgents - 1}`);
    }
    credit[author] = (credit[author] as number) + (messageCredit[t] as number);
  }
  return credit;
}
