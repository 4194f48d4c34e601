import { coalitionTable } from '../src/credit/game/coalitionGame';
import { mulberry32 } from '../src/core/mulberry32';
import { shapleyMonteCarlo } from '../src/credit/game/shapleyMonteCarlo';
import { shapleyValues } from '../src/credit/game/shapleyValues';

/** Error of Monte-Carlo Shapley against exact Shapley at one permutation count. */
export interface ConvergenceRow {
  readonly permutations: number;
  readonly meanAbsError: number;
  readonly maxAbsError: number;
  readonly meanStderr: number;
  /** Share of agent values whose 95% interval contains the exact value. */
  readonly coverage: number;
  readonly evaluationsPerGame: number;
}

/**
 * Monte-Carlo permutation Shapley versus exact Shapley on seeded random 8-agent games with binary,
 * superadditive-ish values (a task solved when enough skill is present), for growing permutation
 * counts. Deterministic: the same seed gives the same table.
 */
export function monteCarloConvergence(
  games = 200,
  agents = 8,
  counts = [4, 8, 16, 32, 64, 128, 256],
): ConvergenceRow[] {
  const random = mulberry32(2026);
  const tables = Array.from({ length: games }, () => {
    const skill = Array.from({ length: agents }, () => random());
    const threshold = 0.5 + random() * 2;
    return coalitionTable(agents, (mask) => {
      let total = 0;
      for (let i = 0; i < agents; i++) if ((mask >> i) & 1) total += skill[i] ?? 0;
      return total >= threshold ? 1 : 0;
    });
  });
  const exact = tables.map(shapleyValues);
  return counts.map((m) => {
    let abs = 0;
    let max = 0;
    let se = 0;
    let covered = 0;
    let evaluations = 0;
    tables.forEach((table, g) => {
      const result = shapleyMonteCarlo(agents, (mask) => table.values[Number(mask)] ?? 0, {
        maxPermutations: m,
        minPermutations: m,
        targetStderr: 0,
        rotation: false,
        random: mulberry32(g + 1),
      });
      evaluations += result.evaluations;
      for (let i = 0; i < agents; i++) {
        const error = Math.abs((result.values[i] ?? 0) - (exact[g]?.[i] ?? 0));
        abs += error;
        max = Math.max(max, error);
        se += result.stderr[i] ?? 0;
        if (
          (result.ciLow[i] ?? 0) - 1e-12 <= (exact[g]?.[i] ?? 0) &&
          (exact[g]?.[i] ?? 0) <= (result.ciHigh[i] ?? 0) + 1e-12
        )
          covered++;
      }
    });
    const cells = games * agents;
    return {
      permutations: m,
      meanAbsError: abs / cells,
      maxAbsError: max,
      meanStderr: se / cells,
      coverage: covered / cells,
      evaluationsPerGame: evaluations / games,
    };
  });
}
