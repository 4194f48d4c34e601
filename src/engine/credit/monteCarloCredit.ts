import type { CreditRow } from '../../core/creditInput';
import { mulberry32 } from '../../core/mulberry32';
import { joinSources, type ValueSource } from '../../core/provenance';
import type { RowProvenance } from './creditRows';
import { OwenOrders, owenPlan, UnionTotals } from '../../credit/game/owenMonteCarlo';
import { drawUnit, unitSize } from '../../credit/game/permutationDesign';
import { prefixMasks } from '../../credit/game/permutationMarginals';
import {
  exactMonteCarlo,
  isEnumerated,
  monteCarloPlan,
  shouldStop,
  type MonteCarloPlan,
} from '../../credit/game/shapleyMonteCarlo';
import { ShapleySampler, type SampledEstimate } from '../../credit/game/shapleySampler';

export interface MonteCarloSettings {
  /** Permutations at most per episode. */
  readonly maxPermutations: number;
  /** Stop once every agent's standard error is below this (credit-methods.md §3.8). */
  readonly targetStderr: number;
  /** Permutations sampled between evaluator round trips (rounded down to whole units, at least one). */
  readonly chunk: number;
  /** Base seed; episode `e` draws from `mulberry32(seed ^ e)`, so a run is reproducible. */
  readonly seed: number;
}

export const defaultMonteCarlo: MonteCarloSettings = { maxPermutations: 200, targetStderr: 0.02, chunk: 16, seed: 1 };

/**
 * The coalition values one episode's estimate reads: resolved in batches, then read synchronously.
 * Masks are `bigint` (bit i = roster agent i), so any team size works.
 */
export interface MaskValues {
  readonly episode: { readonly episodeId: number; readonly agents: readonly unknown[] };
  /** Resolves every mask (logged, cached or evaluated in one request). */
  require(masks: Iterable<bigint>): Promise<void>;
  /** v(S) of a mask resolved by {@link require}. */
  value(mask: bigint): number;
}

/** One episode's Monte-Carlo Shapley estimate; arrays are indexed by roster agent. */
export interface MonteCarloEpisodeEstimate {
  readonly values: Float64Array;
  /** Standard errors; 0 only when every coalition was evaluated (exact values). */
  readonly stderr: Float64Array;
  /** 95% t interval. */
  readonly ciLow: Float64Array;
  readonly ciHigh: Float64Array;
  /** Permutations walked. */
  readonly permutations: number;
  /** Distinct coalitions required. */
  readonly evaluations: number;
  /** The settings' base seed and the episode's own seed (`seed ^ episodeId`). */
  readonly seed: number;
  readonly episodeSeed: number;
  /** Every standard error below the target, or exact. */
  readonly converged: boolean;
  /** Monte-Carlo Owen: each agent's total (indexed by union) with its own interval; absent when exact. */
  readonly unionTotals?: SampledEstimate;
}

/**
 * Monte-Carlo permutation Shapley with 95% confidence intervals (credit-methods.md §3.8), by
 * rotation blocks: a random order and its n − 1 cyclic shifts, so each agent arrives once at every
 * position per block; see {@link ShapleySampler} for the estimate and its standard error. Evaluators
 * may be asynchronous, so units are drawn in chunks: the coalitions a chunk needs are resolved in
 * one request, then added, until every SE is below the target (after at least two units), the
 * budget is spent, or all 2^n coalitions are known (then the values are exact).
 */
export async function monteCarloCredit(
  values: MaskValues,
  settings: MonteCarloSettings,
): Promise<MonteCarloEpisodeEstimate> {
  const n = values.episode.agents.length;
  const plan = monteCarloPlan(n, { maxPermutations: settings.maxPermutations, targetStderr: settings.targetStderr });
  const base = Int32Array.from({ length: n }, (_, i) => i);
  return sampleCredit(values, settings, n, plan, (random) => drawUnit(plan.design, base, random));
}

/**
 * Monte-Carlo Owen values of an episode's messages, grouped by author (credit-methods.md §3.12
 * option 2, Monte Carlo): the same chunked driver, seeds, stopping rule and intervals as
 * {@link monteCarloCredit}, over two-level orders ({@link OwenOrders}: agents, then their messages),
 * in antithetic pairs. Arrays are indexed by message; `unionTotals`, by agent, gives each agent's
 * total its own interval from the same orders ({@link UnionTotals}).
 *
 * @param unions - `unions[agent]` lists the agent's message indices (a partition of the messages).
 */
export async function owenMonteCarloCredit(
  values: MaskValues,
  unions: readonly (readonly number[])[],
  settings: MonteCarloSettings,
): Promise<MonteCarloEpisodeEstimate> {
  const t = unions.reduce((count, union) => count + union.length, 0);
  const orders = new OwenOrders(unions, t);
  const plan = owenPlan(t, { maxPermutations: settings.maxPermutations, targetStderr: settings.targetStderr });
  const totals = new UnionTotals(unions, t, plan.design);
  const estimate = await sampleCredit(
    values,
    settings,
    t,
    plan,
    (random) => orders.drawUnit(plan.design, random),
    totals,
  );
  return estimate.stderr.every((se) => se === 0)
    ? estimate
    : { ...estimate, unionTotals: totals.estimate(plan.confidence) };
}

/**
 * Draws units of `n`-player orders in chunks, resolving each chunk's masks in one request (and
 * feeding every unit to `totals` too, when given). Only a
 * game whose `2^n` coalitions all appear is exact: Owen orders of two or more unions never show a
 * mask that splits two unions, so only a one-union (Shapley) game can be enumerated.
 */
async function sampleCredit(
  values: MaskValues,
  settings: MonteCarloSettings,
  n: number,
  plan: MonteCarloPlan,
  draw: (random: () => number) => Int32Array[],
  totals?: UnionTotals,
): Promise<MonteCarloEpisodeEstimate> {
  const episodeSeed = (settings.seed ^ values.episode.episodeId) >>> 0;
  const sampler = new ShapleySampler(n, plan.design);
  const required = new Set<bigint>();
  const random = mulberry32(episodeSeed);
  const perChunk = Math.max(1, Math.floor(settings.chunk / unitSize(plan.design, n)));
  let exact = n === 0;
  while (!exact && sampler.units < plan.maxUnits && !shouldStop(sampler, plan)) {
    const units = Array.from({ length: Math.min(perChunk, plan.maxUnits - sampler.units) }, () => draw(random));
    const masks = units.flat().flatMap(prefixMasks);
    await values.require(masks);
    for (const mask of masks) required.add(mask);
    for (const orders of units) {
      sampler.addUnit(orders, (mask) => values.value(mask));
      totals?.addUnit(orders, (mask) => values.value(mask));
    }
    exact = isEnumerated(n, required.size);
  }
  return estimate(n, values, plan, sampler, exact, required.size, { seed: settings.seed, episodeSeed });
}

function estimate(
  n: number,
  values: MaskValues,
  plan: MonteCarloPlan,
  sampler: ShapleySampler,
  exact: boolean,
  evaluations: number,
  seeds: { seed: number; episodeSeed: number },
): MonteCarloEpisodeEstimate {
  if (exact)
    return { ...exactMonteCarlo(n, (mask) => values.value(mask), sampler.permutations, evaluations), ...seeds };
  return {
    ...sampler.estimate(plan.confidence),
    permutations: sampler.permutations,
    evaluations,
    converged: shouldStop(sampler, plan),
    ...seeds,
  };
}

/**
 * Row provenance of a Monte-Carlo estimate (credit-methods.md §3.8, §3.12): `exact` when every
 * coalition was seen (SE 0), `approximate` when a value used is, else `estimated`, with the source
 * `estimated` added unless exact.
 */
export function estimateProvenance(
  values: { allExact(): boolean; sourcesUsed(): Set<ValueSource> },
  estimate: MonteCarloEpisodeEstimate,
): RowProvenance {
  const exact = estimate.converged && estimate.stderr.every((se) => se === 0);
  const status = !values.allExact() ? 'approximate' : exact ? 'exact' : 'estimated';
  return { source: joinSources([...values.sourcesUsed(), ...(exact ? [] : (['estimated'] as const))]), status };
}

/** The interval fields of player `i`'s row: standard error, 95% interval and the permutations walked. */
export function estimateInterval(estimate: MonteCarloEpisodeEstimate, i: number): Partial<CreditRow> {
  return intervalOf(estimate, estimate, i);
}

/** The interval fields of agent `i`'s row of a Monte-Carlo Owen estimate; none when it has no agent totals. */
export function unionInterval(estimate: MonteCarloEpisodeEstimate, i: number): Partial<CreditRow> {
  return estimate.unionTotals ? intervalOf(estimate.unionTotals, estimate, i) : {};
}

function intervalOf(sampled: SampledEstimate, estimate: MonteCarloEpisodeEstimate, i: number): Partial<CreditRow> {
  return {
    stderr: sampled.stderr[i] ?? null,
    ciLow: sampled.ciLow[i] ?? null,
    ciHigh: sampled.ciHigh[i] ?? null,
    n: estimate.permutations,
  };
}
