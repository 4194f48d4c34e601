// Test helpers: games written with named players, and seeded random games for property tests.
import { type CoalitionTable, coalitionTable } from '../../../../src/credit/game/coalitionGame';
import { mulberry32 } from '../../../../src/core/mulberry32';

/**
 * A coalition table from named coalitions: `players` gives one character per agent (bit i = the i-th
 * character) and `named` maps coalition names such as 'PS' to v; unnamed coalitions (∅ included) are 0.
 */
export function namedGame(players: string, named: Readonly<Record<string, number>>): CoalitionTable {
  const values = new Map<number, number>();
  for (const [name, value] of Object.entries(named)) values.set(maskOf(players, name), value);
  return coalitionTable(players.length, (mask) => values.get(mask) ?? 0);
}

/** The bitmask of a coalition named by its players' characters, in any order. */
export function maskOf(players: string, name: string): number {
  let mask = 0;
  for (const player of name) {
    const index = players.indexOf(player);
    if (index < 0) throw new Error(`unknown player ${player} in ${name}`);
    mask |= 1 << index;
  }
  return mask;
}

/** The agent indices of an order named by characters ('PSV' → [0, 1, 2]). */
export function orderOf(players: string, name: string): number[] {
  return Array.from(name, (player) => players.indexOf(player));
}

/** The table's characteristic function. */
export function valueOf(table: CoalitionTable): (mask: number) => number {
  return (mask) => table.values[mask]!;
}

/** `valueOf` for estimators that take `bigint` coalition masks (Monte-Carlo Shapley). */
export function bigValueOf(table: CoalitionTable): (mask: bigint) => number {
  return (mask) => table.values[Number(mask)]!;
}

/** The test's own seeded uniform source on [0, 1) (mulberry32). */
export const seeded = mulberry32;

/** A random game on `n` players: v(S) uniform in [0, 1), v(∅) = 0 unless `emptyValue` is drawn too. */
export function randomGame(n: number, random: () => number, randomEmpty = false): CoalitionTable {
  return coalitionTable(n, (mask) => (mask === 0 && !randomEmpty ? 0 : Math.round(random() * 1000) / 1000));
}

/** `count` seeded random games with n cycling through 1..maxN; every third has a non-zero v(∅). */
export function randomGames(count: number, seed: number, maxN = 10): CoalitionTable[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, g) => randomGame(1 + (g % maxN), random, g % 3 === 2));
}

/** The same game with agent `k` made a null player: v'(S) = v(S \ {k}). */
export function withNullPlayer(table: CoalitionTable, k: number): CoalitionTable {
  return coalitionTable(table.n, (mask) => table.values[mask & ~(1 << k)]!);
}

/**
 * The same game made symmetric in agents i and j: a coalition holding j but not i takes the value
 * of the one holding i instead, so swapping i and j never changes v.
 */
export function withSymmetricPair(table: CoalitionTable, i: number, j: number): CoalitionTable {
  const bitI = 1 << i;
  const bitJ = 1 << j;
  return coalitionTable(
    table.n,
    (mask) => table.values[(mask & bitJ) !== 0 && (mask & bitI) === 0 ? (mask & ~bitJ) | bitI : mask]!,
  );
}

/** v + w, pointwise. */
export function sumGame(v: CoalitionTable, w: CoalitionTable): CoalitionTable {
  return coalitionTable(v.n, (mask) => v.values[mask]! + w.values[mask]!);
}

/** Every permutation of 0..n−1 (Heap's algorithm order does not matter to the tests). */
export function allPermutations(n: number): number[][] {
  if (n === 0) return [[]];
  return allPermutations(n - 1).flatMap((order) =>
    Array.from({ length: n }, (_, at) => [...order.slice(0, at), n - 1, ...order.slice(at)]),
  );
}

/** Asserts two numeric sequences agree entry by entry within `tolerance` (NaN matches NaN). */
export function assertClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tolerance: number,
  label = '',
): void {
  if (actual.length !== expected.length) throw new Error(`${label}: length ${actual.length} ≠ ${expected.length}`);
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i]!;
    const e = expected[i]!;
    if (Number.isNaN(e) ? !Number.isNaN(a) : !(Math.abs(a - e) <= tolerance)) {
      throw new Error(
        `${label}[${i}]: got ${a}, expected ${e} (±${tolerance}); actual [${Array.from(actual).join(', ')}]`,
      );
    }
  }
}

/** Sum of a numeric sequence. */
export function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  return total;
}
