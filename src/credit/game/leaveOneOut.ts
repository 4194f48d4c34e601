import { type CoalitionTable, checkCoalitionTable } from './coalitionGame';

/**
 * Leave-one-out difference reward of every agent (credit-methods.md §3.3; Wolpert–Tumer difference
 * reward): `LOO_i = v(N) − v(N \ {i})`. Symmetric and null player → 0, but not efficient: Σ LOO is 2
 * in the AND game and 0 in the OR game (E3). Reads only `n + 1` entries of the table.
 *
 * @param table - the coalition table, `n` in `[0, 20]`.
 * @returns LOO indexed by agent, in the units of `v`; empty when `n = 0`. NaN in `v(N)` makes every
 *   entry NaN; NaN in `v(N \ {i})` makes entry `i` NaN.
 * @throws RangeError when the table is malformed (programmer error).
 */
export function leaveOneOut(table: CoalitionTable): Float64Array {
  checkCoalitionTable(table, 'leaveOneOut');
  const { n, values } = table;
  const full = 2 ** n - 1;
  const result = new Float64Array(n);
  for (let i = 0; i < n; i++) result[i] = (values[full] as number) - (values[full & ~(1 << i)] as number);
  return result;
}

/**
 * Leave-one-out difference rewards from logged rewards only, without a coalition table
 * (credit-methods.md §3.3, §6.1): `LOO_i = full − without[i]`, where `full = R = v(N)` and
 * `without[i] = R(a_{−i} ⊕ d_i) = v(N \ {i})` (with whatever default `d_i` was logged).
 *
 * @param full - the factual reward `v(N)`.
 * @param without - the counterfactual reward with agent `i` removed, per agent; any length.
 * @returns one entry per element of `without`; empty for empty input. NaN inputs give NaN entries
 *   (a missing counterfactual logged as NaN stays visibly missing).
 */
export function leaveOneOutFrom(full: number, without: ArrayLike<number>): Float64Array {
  const result = new Float64Array(without.length);
  for (let i = 0; i < without.length; i++) result[i] = full - (without[i] as number);
  return result;
}
