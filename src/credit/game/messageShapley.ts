import { coalitionTable } from './coalitionGame';
import { shapleyValues } from './shapleyValues';

/**
 * Plain Shapley values with messages as players, ignoring who wrote them (credit-methods.md §3.12,
 * E10). Unlike {@link owenValues}, an agent's messages need not sum to its agent-level Shapley value
 * (E10: plan messages sum to 4/15, not 2/5). Efficient over messages: Σ = `v(all) − v(∅)`.
 *
 * Calls `value` once for each of the `2^nMessages` masks.
 *
 * @param nMessages - number of messages, an integer in `[0, 20]`; 0 gives an empty array.
 * @param value - the message-coalition value `v`, given a bitmask over messages.
 * @returns Shapley value per message index, in the units of `v`; NaN anywhere makes all NaN.
 * @throws RangeError when `nMessages` is out of range (programmer error).
 */
export function messageShapley(nMessages: number, value: (mask: number) => number): Float64Array {
  return shapleyValues(coalitionTable(nMessages, value));
}
