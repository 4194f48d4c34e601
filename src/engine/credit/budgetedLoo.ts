import type { CreditEpisode } from '../../core/creditInput';
import { mulberry32 } from '../../core/mulberry32';
import { budgetAllocation, controlVariateEstimate } from '../../credit/stats/budgetAllocation';
import { fitLooModel, type LooModel } from './looModel';

/** Per-agent estimate of a run's mean leave-one-out credit under an evaluation budget. */
export interface BudgetEstimate {
  readonly agent: string;
  readonly estimate: number;
  readonly stderr: number;
}

/** What a budgeted pass spent and what it concluded. */
export interface BudgetReport {
  readonly budget: number;
  /** Evaluator calls the plan expected to spend (pilot + sampled), at most `budget`. */
  readonly plannedCost: number;
  /** Evaluator calls the episodes computed exactly took (pilot + drawn), at most `budget`. */
  readonly spentCost: number;
  /** Evaluator calls an exact leave-one-out of every episode would take: `fullCost − spentCost` are saved. */
  readonly fullCost: number;
  readonly exactEpisodes: number;
  readonly totalEpisodes: number;
  readonly agents: readonly BudgetEstimate[];
}

/** Episodes computed exactly, with their per-agent LOO credit (roster order). */
export type ExactCredit = (episodes: readonly CreditEpisode[]) => Promise<Map<number, Float64Array>>;

/** Share of the budget spent on a uniform pilot that calibrates the learned estimate. */
const pilotShare = 0.2;
/** Floor on inclusion probabilities, so weights stay ≤ 20 (credit-methods.md §3.16). */
const qMin = 0.05;

/**
 * Budgeted leave-one-out credit (credit-methods.md §3.16): episodes whose counterfactuals are
 * already logged or cached are computed exactly for free; a uniform pilot (20% of the budget)
 * calibrates a learned estimate `m` (per-agent means by outcome, looModel.ts) and its residual
 * scale `e`; the rest of the budget
 * is allocated by the optimal rule `q_j ∝ e_j/√c_j` (floored at 0.05); episodes drawn with
 * probability `q_j` are computed exactly, and the run's per-agent mean is the control-variate
 * estimate `m + Z/q·(Δ − m)` averaged over all episodes, with its standard error.
 * `costOf(e)` is the number of evaluator calls an exact episode needs (0 = free): for a replay,
 * its calls to the model server. The pass never spends more than `budget`: when the floor lifts the
 * expected cost above what is left, every probability is scaled down to fit, and a draw that would
 * overrun the budget is left out (its estimate is the learned one).
 */
export async function budgetedLoo(
  episodes: readonly CreditEpisode[],
  budget: number,
  costOf: (e: CreditEpisode) => number,
  exact: ExactCredit,
  seed = 1,
): Promise<BudgetReport> {
  const random = mulberry32(seed);
  const costs = episodes.map(costOf);
  const free = episodes.filter((_, j) => costs[j] === 0);
  const costly = episodes.map((e, j) => ({ e, c: costs[j] ?? 0 })).filter((x) => x.c > 0);
  const pilot = withinBudget(
    sample(
      costly,
      Math.min(costly.length, Math.round((pilotShare * budget) / Math.max(1, mean(costly.map((x) => x.c))))),
      random,
    ),
    budget,
  );
  const known = await exact([...free, ...pilot.map((x) => x.e)]);
  const agents = agentNames(episodes);
  const model = fitLooModel(known, episodes, agents);
  const rest = costly.filter((x) => !pilot.includes(x));
  const spent = pilot.reduce((sum, x) => sum + x.c, 0);
  const left = Math.max(0, budget - spent);
  const q = inclusionProbabilities(
    rest.map((x) => x.c),
    rest.map((x) => model.residual(x.e)),
    left,
  );
  const draws = rest.filter((_, k) => random() < (q[k] ?? 0));
  // In random order, so the draws an overrun leaves out are any of them, not the last steps'.
  const drawn = withinBudget(sample(draws, draws.length, random), left);
  const sampled = await exact(drawn.map((x) => x.e));
  const inclusion = new Map(rest.map((x, k) => [x.e.episodeId, q[k] ?? 0]));
  return {
    budget,
    spentCost: spent + drawn.reduce((sum, x) => sum + x.c, 0),
    fullCost: costs.reduce((sum, c) => sum + c, 0),
    plannedCost: spent + rest.reduce((sum, x, k) => sum + x.c * (q[k] ?? 0), 0),
    exactEpisodes: known.size + sampled.size,
    totalEpisodes: episodes.length,
    agents: agents.map((agent, i) => estimateFor(agent, i, episodes, { known, sampled, inclusion, model })),
  };
}

/**
 * The optimal inclusion probabilities of the episodes left after the pilot, floored at
 * {@link qMin} (every episode keeps a chance of being checked, so the estimate stays unbiased even
 * where the pilot saw no error) and scaled down when the floor lifts their expected cost above `left`.
 */
function inclusionProbabilities(costs: readonly number[], residuals: readonly number[], left: number): number[] {
  const allocation = budgetAllocation(residuals, left, costs);
  const q = Array.from(allocation.q, (p) => Math.max(qMin, p));
  const expected = q.reduce((sum, p, k) => sum + p * (costs[k] ?? 0), 0);
  return expected > left && expected > 0 ? q.map((p) => (p * left) / expected) : q;
}

/** The leading items whose costs add up to at most `budget`. */
function withinBudget<T extends { readonly c: number }>(items: readonly T[], budget: number): T[] {
  let total = 0;
  const kept: T[] = [];
  for (const item of items) {
    if (total + item.c > budget) break;
    total += item.c;
    kept.push(item);
  }
  return kept;
}

interface EstimateInputs {
  readonly known: ReadonlyMap<number, Float64Array>;
  readonly sampled: ReadonlyMap<number, Float64Array>;
  readonly inclusion: ReadonlyMap<number, number>;
  readonly model: LooModel;
}

function estimateFor(
  agent: string,
  index: number,
  episodes: readonly CreditEpisode[],
  x: EstimateInputs,
): BudgetEstimate {
  const values = episodes
    .filter((e) => e.agents[index]?.name === agent)
    .map((e) => {
      const exactValue = x.known.get(e.episodeId)?.[index];
      if (exactValue !== undefined) return exactValue;
      const drawn = x.sampled.get(e.episodeId)?.[index];
      return controlVariateEstimate(x.model.means(e)[index] ?? 0, drawn, x.inclusion.get(e.episodeId) ?? 1);
    })
    .filter(Number.isFinite);
  const m = mean(values);
  const variance = values.reduce((sum, v) => sum + (v - m) ** 2, 0) / Math.max(1, values.length - 1);
  return { agent, estimate: m, stderr: Math.sqrt(variance / Math.max(1, values.length)) };
}

function agentNames(episodes: readonly CreditEpisode[]): string[] {
  return (episodes[0]?.agents ?? []).map((a) => a.name);
}

function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  for (let i = 0; i < count && i < pool.length; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
