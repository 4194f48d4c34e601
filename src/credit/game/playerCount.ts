/**
 * Guards the number of players of a cooperative game (credit-methods.md §2: `n` agents or `T`
 * messages). Coalitions are bitmasks in 32-bit integers, and exact methods enumerate all `2^n`
 * coalitions, so each algorithm states its own ceiling.
 *
 * @param n - number of players; must be an integer in `[0, max]`.
 * @param max - largest `n` the caller supports (at most 30, the widest positive 32-bit mask).
 * @param caller - the exported function's name, used in the error message.
 * @throws RangeError when `n` is not an integer in `[0, max]`: a programmer error, never a data one.
 */
export function checkPlayerCount(n: number, max: number, caller: string): void {
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new RangeError(`${caller}: the number of players must be an integer from 0 to ${max}, got ${n}`);
  }
}
