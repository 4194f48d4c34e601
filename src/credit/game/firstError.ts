/**
 * First-error localisation of a failed episode (credit-methods.md §3.13, E11). All indices are
 * 0-based message indices: message `j` moves the prefix value from `V(h_j)` to `V(h_{j+1})`, so the
 * doc's 1-based `t*` (E11: t* = 2) is `index = t* − 1` (E11: 1).
 */
export interface FirstErrorResult {
  /** 0-based index of the first harmful message (the doc's `t* − 1`), or undefined if none. */
  index: number | undefined;
  /** 0-based indices of every harmful message (a drop of at least δ), the first error included, ascending. */
  harmful: number[];
  /** 0-based indices of messages after the first error that raise the value by at least δ, ascending. */
  repairs: number[];
}

/** Absolute slack on the δ comparisons, so that decimal inputs such as 0.5 − 0.3 meet δ = 0.2. */
const slack = 1e-12;

/**
 * Finds the first error: `t* = min{ t : V(h_{t−1}) − V(h_t) ≥ δ and the drop is significant }`
 * (credit-methods.md §3.13). Every message with such a drop is `harmful`; messages after `t*` with
 * `r_t ≥ +δ` are `repairs` (a partial recovery below δ is not). Meant for failed episodes (`R = 0`);
 * the function does not check `R`.
 *
 * Significance (the one-sided Fisher test on K continuations per prefix, §3.13) is the caller's: pass
 * `isSignificant` to veto drops; by default every drop of at least δ counts (E11 grants it).
 *
 * @param prefixValues - `V(h_0) .. V(h_T)` (success probabilities in [0, 1], `V(h_T) = R`).
 * @param delta - the drop threshold δ, ≥ 0 (the doc's default is 0.25); comparisons allow 1e-12 slack.
 * @param isSignificant - optional veto, given the 0-based message index of a drop of at least δ.
 * @returns no error and empty lists for fewer than two prefix values. A NaN prefix value makes the
 *   differences it enters neither harmful nor repairs.
 * @throws RangeError when `delta` is NaN or negative (programmer error).
 */
export function firstError(
  prefixValues: ArrayLike<number>,
  delta: number,
  isSignificant: (index: number) => boolean = () => true,
): FirstErrorResult {
  if (!(delta >= 0)) throw new RangeError(`firstError: delta must be ≥ 0, got ${delta}`);
  const harmful: number[] = [];
  const repairs: number[] = [];
  for (let j = 0; j + 1 < prefixValues.length; j++) {
    const change = (prefixValues[j + 1] as number) - (prefixValues[j] as number);
    if (change <= -delta + slack && isSignificant(j)) harmful.push(j);
    else if (harmful.length > 0 && change >= delta - slack) repairs.push(j);
  }
  return { index: harmful[0], harmful, repairs };
}
