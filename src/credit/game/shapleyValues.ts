import { type CoalitionTable, checkCoalitionTable, popcount } from './coalitionGame';
import { shapleyWeights } from './shapleyWeights';

/**
 * Exact Shapley values of every agent (credit-methods.md §3.7, Standard):
 *
 *     φ_i = Σ_{S ⊆ N\{i}} |S|! (n − |S| − 1)! / n! · [ v(S ∪ {i}) − v(S) ]
 *
 * Efficient (`Σ φ_i = v(N) − v(∅)`, up to float rounding), symmetric, additive, and a null player
 * (`v(S ∪ {i}) = v(S)` for all `S`) gets exactly 0. Units are those of `v`. Cost `O(2^n · n)`:
 * about 1 ms at n = 12 and 10–20 ms at n = 16.
 *
 * @param table - the full coalition table, `n` in `[0, 20]`.
 * @returns `φ` indexed by agent; an empty array when `n = 0`. A NaN anywhere in the table makes every
 *   `φ_i` NaN (each `v(S)` enters every agent's sum with a positive weight); ±Infinity likewise gives
 *   NaN or ±Infinity. Never throws on values.
 * @throws RangeError when the table is malformed (programmer error).
 */
export function shapleyValues(table: CoalitionTable): Float64Array {
  checkCoalitionTable(table, 'shapleyValues');
  const { n, values } = table;
  const phi = new Float64Array(n);
  const weights = shapleyWeights(n);
  const half = 2 ** (n - 1);
  for (let i = 0; i < n; i++) {
    const bit = 1 << i;
    const low = bit - 1;
    let sum = 0;
    for (let rest = 0; rest < half; rest++) {
      // Spread `rest` over the n − 1 other players: insert a zero at bit i.
      const mask = ((rest & ~low) << 1) | (rest & low);
      sum += (weights[popcount(rest)] as number) * ((values[mask | bit] as number) - (values[mask] as number));
    }
    phi[i] = sum;
  }
  return phi;
}
