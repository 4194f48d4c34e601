import { checkPlayerCount } from './playerCount';

/**
 * Message leave-one-out credit (credit-methods.md §3.12 option 4, E10): `R − R(without m_t)`, i.e.
 * `v(all) − v(all \ {t})` over message coalitions. Signed, not conserving; duplicated messages both
 * get 0 (each covers for the other).
 *
 * Calls `value` `nMessages + 1` times (no table), so it works up to 30 messages.
 *
 * @param nMessages - number of messages, an integer in `[0, 30]`; 0 gives an empty array.
 * @param value - the message-coalition value `v`, given a bitmask over messages.
 * @returns LOO per message index, in the units of `v`; NaN values give NaN entries.
 * @throws RangeError when `nMessages` is out of range (programmer error).
 */
export function messageLeaveOneOut(nMessages: number, value: (mask: number) => number): Float64Array {
  checkPlayerCount(nMessages, 30, 'messageLeaveOneOut');
  const result = new Float64Array(nMessages);
  if (nMessages === 0) return result;
  const all = 2 ** nMessages - 1;
  const full = value(all);
  for (let t = 0; t < nMessages; t++) result[t] = full - value(all & ~(1 << t));
  return result;
}
