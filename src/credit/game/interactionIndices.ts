import { type CoalitionTable, checkCoalitionTable, popcount } from './coalitionGame';
import { shapleyWeights } from './shapleyWeights';

/**
 * Shapley interaction index of every pair of agents (credit-methods.md §3.7, Standard):
 *
 *     I_ij = Σ_{S ⊆ N\{i,j}} |S|! (n − |S| − 2)! / (n − 1)! · [ v(S∪{i,j}) − v(S∪{i}) − v(S∪{j}) + v(S) ]
 *
 * `I_ij > 0`: complements (AND game, E3: +1); `I_ij < 0`: substitutes / redundancy (OR game: −1).
 * Units are those of `v`. Cost `O(2^n · n²)`.
 *
 * @param table - the full coalition table, `n` in `[0, 20]`.
 * @returns an `n × n` row-major matrix, `result[i * n + j] = I_ij`, symmetric, with NaN on the
 *   diagonal (a pair needs two distinct agents). Empty when `n = 0`; `[NaN]` when `n = 1`. A NaN in
 *   the table makes every off-diagonal entry NaN.
 * @throws RangeError when the table is malformed (programmer error).
 */
export function interactionIndices(table: CoalitionTable): Float64Array {
  checkCoalitionTable(table, 'interactionIndices');
  const { n } = table;
  const result = new Float64Array(n * n);
  const weights = shapleyWeights(n - 1);
  for (let i = 0; i < n; i++) {
    result[i * n + i] = NaN;
    for (let j = i + 1; j < n; j++) {
      const index = pairIndex(table.values, n, i, j, weights);
      result[i * n + j] = index;
      result[j * n + i] = index;
    }
  }
  return result;
}

/** `I_ij` for `i < j`: sums over the `2^(n−2)` coalitions that contain neither. */
function pairIndex(values: Float64Array, n: number, i: number, j: number, weights: Float64Array): number {
  const bitI = 1 << i;
  const bitJ = 1 << j;
  const both = bitI | bitJ;
  const lowI = bitI - 1;
  const lowJ = bitJ - 1;
  const count = 2 ** (n - 2);
  let sum = 0;
  for (let rest = 0; rest < count; rest++) {
    // Insert zeros at bit i, then at bit j (> i), to spread `rest` over the other n − 2 players.
    const withI = ((rest & ~lowI) << 1) | (rest & lowI);
    const mask = ((withI & ~lowJ) << 1) | (withI & lowJ);
    const delta =
      (values[mask | both] as number) - (values[mask | bitI] as number) - (values[mask | bitJ] as number) + (values[mask] as number);
    sum += (weights[popcount(rest)] as number) * delta;
  }
  return sum;
}
