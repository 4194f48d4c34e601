import { checkPlayerCount } from './playerCount';

/**
 * A cooperative game given by its full characteristic function (credit-methods.md §2, §3.7):
 * `values[S] = v(S)` for every coalition `S ⊆ {0..n-1}`, indexed by bitmask (bit `i` set when agent
 * `i` is present). `values[0] = v(∅)` and `values[2^n − 1] = v(N)`, the factual reward. Units are
 * those of the reward (usually a success probability in [0, 1]).
 */
export interface CoalitionTable {
  /** Number of players, 0 to 20. */
  readonly n: number;
  /** `v(S)` for every bitmask `S`; length `2^n`. */
  readonly values: Float64Array;
}

/** Largest `n` for which a full coalition table (2^n doubles, 8 MiB at n = 20) is built. */
export const maxTablePlayers = 20;

/**
 * Tabulates `value(mask)` for every coalition mask `0 .. 2^n − 1`, calling `value` exactly once per
 * mask, in increasing mask order. Values are stored as given: NaN stays NaN (and then propagates to
 * every credit computed from the table).
 *
 * @param n - number of players, an integer in `[0, 20]`; `n = 0` gives the one-entry table `[v(∅)]`.
 * @param value - the characteristic function `v`, given the coalition bitmask.
 * @throws RangeError when `n` is not an integer in `[0, 20]`.
 */
export function coalitionTable(n: number, value: (mask: number) => number): CoalitionTable {
  checkPlayerCount(n, maxTablePlayers, 'coalitionTable');
  const values = new Float64Array(2 ** n);
  for (let mask = 0; mask < values.length; mask++) values[mask] = value(mask);
  return { n, values };
}

/**
 * The number of players in a coalition: the count of set bits of `mask` (Hamming weight, the SWAR
 * bit count). `mask` is read as an unsigned 32-bit integer, so `popcount(-1) = 32`.
 */
export function popcount(mask: number): number {
  let x = mask - ((mask >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The size of every coalition of `n` players: `sizes[mask] = popcount(mask)` for `mask < 2^n`, as a
 * lookup table for hot loops (`n` in [0, 20]).
 */
export function coalitionSizes(n: number): Uint8Array {
  checkPlayerCount(n, maxTablePlayers, 'coalitionSizes');
  const sizes = new Uint8Array(2 ** n);
  for (let mask = 1; mask < sizes.length; mask++) sizes[mask] = (sizes[mask >> 1] as number) + (mask & 1);
  return sizes;
}

/**
 * Checks that `table` is well formed before an exact algorithm reads it.
 *
 * @throws RangeError when `table.n` is out of `[0, 20]` or `table.values` does not hold `2^n` entries.
 */
export function checkCoalitionTable(table: CoalitionTable, caller: string): void {
  checkPlayerCount(table.n, maxTablePlayers, caller);
  if (table.values.length !== 2 ** table.n) {
    throw new RangeError(
      `${caller}: a table of ${table.n} players needs ${2 ** table.n} values, got ${table.values.length}`,
    );
  }
}
