import { type CoalitionTable, checkCoalitionTable, coalitionSizes } from './coalitionGame';
import { shapleyWeights } from './shapleyWeights';

/**
 * Exact Shapley values of every agent (credit-methods.md §3.7, Standard):
 *
 *     φ_i = Σ_{S ⊆ N\{i}} |S|! (n − |S| − 1)! / n! · [ v(S ∪ {i}) − v(S) ]
 *
 * Efficient (`Σ φ_i = v(N) − v(∅)`, up to float rounding), symmetric, additive, and a null player
 * (`v(S ∪ {i}) = v(S)` for all `S`) gets exactly 0. Units are those of `v`. Cost `O(2^n · n)`:
 * about 0.3 ms at n = 12, 2 ms at n = 16 and 30 ms at n = 20 (Node 20, one core).
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
  const sizes = coalitionSizes(n);
  for (let i = 0; i < n; i++) {
    const bit = 1 << i;
    let sum = 0;
    // Masks without bit i come in runs of `bit` consecutive masks, every 2·bit.
    for (let start = 0; start < values.length; start += 2 * bit) {
      for (let mask = start; mask < start + bit; mask++) {
        sum += (weights[sizes[mask] as number] as number) * ((values[mask + bit] as number) - (values[mask] as number));
      }
    }
    phi[i] = sum;
  }
  return phi;
}
