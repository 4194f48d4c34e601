import type { CreditRow } from '../../core/creditInput';
import { mulberry32 } from '../../core/mulberry32';
import { shapleyMonteCarlo } from '../../credit/game/shapleyMonteCarlo';
import { shuffle } from '../../credit/game/shuffle';
import type { CoalitionValues } from './coalitionValues';
import { agentRows, provenanceOf } from './creditRows';

export interface MonteCarloSettings {
  /** Permutations at most per episode. */
  readonly maxPermutations: number;
  /** Stop once every agent's standard error is below this (credit-methods.md §3.8). */
  readonly targetStderr: number;
  /** Permutations sampled between evaluator round trips. */
  readonly chunk: number;
  readonly seed: number;
}

export const defaultMonteCarlo: MonteCarloSettings = { maxPermutations: 200, targetStderr: 0.02, chunk: 16, seed: 1 };

/**
 * Monte-Carlo permutation Shapley with 95% confidence intervals. Evaluators may be asynchronous, so
 * permutations are drawn in chunks: the coalitions a chunk needs are resolved in one request, then
 * the estimate is recomputed over all permutations so far, until it is tight enough or the budget
 * of permutations is spent.
 */
export async function monteCarloCredit(values: CoalitionValues, settings: MonteCarloSettings): Promise<CreditRow[]> {
  const n = values.episode.agents.length;
  const random = mulberry32(settings.seed ^ values.episode.episodeId);
  const permutations: number[][] = [];
  for (;;) {
    const chunk = Array.from({ length: Math.min(settings.chunk, settings.maxPermutations - permutations.length) }, () =>
      Array.from(shuffle(Int32Array.from({ length: n }, (_, i) => i), random)),
    );
    await values.require(chunk.flatMap(prefixMasks));
    permutations.push(...chunk);
    const result = shapleyMonteCarlo(n, (mask) => values.value(BigInt(mask)), { permutations, targetStderr: settings.targetStderr, maxPermutations: permutations.length });
    const tight = Array.from(result.stderr).every((se) => se <= settings.targetStderr);
    if ((tight && permutations.length >= 2) || permutations.length >= settings.maxPermutations || result.converged) {
      const provenance = provenanceOf(permutations.flatMap(prefixMasks).map((m) => values.info(m)), result.converged && Array.from(result.stderr).every((se) => se === 0) ? 'exact' : 'estimated');
      return agentRows(values.episode, result.values, provenance, Array.from(result.values, (_, i) => ({
        stderr: result.stderr[i] ?? null,
        ciLow: result.ciLow[i] ?? null,
        ciHigh: result.ciHigh[i] ?? null,
        n: result.permutations,
      })));
    }
  }
}

/** The coalitions walked by one permutation: ∅, {π1}, {π1, π2}, …, N. */
function prefixMasks(permutation: readonly number[]): bigint[] {
  const masks = [0n];
  let mask = 0n;
  for (const agent of permutation) {
    mask |= 1n << BigInt(agent);
    masks.push(mask);
  }
  return masks;
}
