import type { CreditAgent, CreditEpisode, CreditRow, LoggedCounterfactual } from '../../core/creditInput';
import { joinSources, NotIdentifiableError, remedies } from '../../core/provenance';
import { coalitionTable } from '../../credit/game/coalitionGame';
import { shapleyValues } from '../../credit/game/shapleyValues';
import { routingEstimates } from '../../credit/signals/routingEstimates';
import type { CoalitionValues, ValueInfo } from './coalitionValues';
import { agentRow, agentRows, provenanceOf } from './creditRows';
import { maxExactAgents, type CreditMethodName } from './creditMethod';
import { messageCredit, type MessageCreditResult } from './messageCredit';
import { estimateInterval, estimateProvenance, monteCarloCredit, type MonteCarloSettings } from './monteCarloCredit';

/** Credit rows of one episode, by method name (a routing pass also yields `wta` and `routing-ipw`). */
export type EpisodeCreditRows = Map<string, CreditRow[]>;

export interface EpisodeCreditInput {
  readonly episode: CreditEpisode;
  readonly method: CreditMethodName;
  /** Values by agent mask, and by message mask for per-message methods. */
  readonly values: () => CoalitionValues;
  readonly messageValues: () => CoalitionValues;
  readonly monteCarlo: MonteCarloSettings;
  /** The intervention of evaluated counterfactuals (default `remove`; a replay may put default actions in place). */
  readonly intervention?: string;
}

export interface EpisodeCreditOutput {
  readonly rows: EpisodeCreditRows;
  /** Per-message extras (first error) for per-message methods. */
  readonly messages?: MessageCreditResult;
}

/**
 * Computes one method's credit for one episode. Throws a {@link NotIdentifiableError} when the
 * data cannot answer (with the remedy), or an Error saying what failed.
 */
export async function episodeCredit(input: EpisodeCreditInput): Promise<EpisodeCreditOutput> {
  const { episode, method } = input;
  const n = episode.agents.length;
  if (n === 0) throw new Error('the episode has no agents');
  switch (method) {
    case 'shared':
    case 'routing':
      return sharedOrRouting(episode, method);
    case 'loo':
      return single(method, await looCredit(input));
    case 'shapley':
      return single(method, await shapleyCredit(input));
    case 'shapley-mc':
      return single(method, await monteCarloRows(input));
    case 'prefix':
    case 'owen': {
      const result = await messageCredit(input.messageValues(), method, input.monteCarlo);
      return { rows: new Map([[method, result.rows]]), messages: result };
    }
  }
}

/**
 * The same as {@link episodeCredit} without waiting, when nothing needs an evaluator: the shared
 * reward, routing credit, and leave-one-out or exact Shapley whose every value is logged (or was
 * resolved). Undefined when a value must be awaited (then call {@link episodeCredit}); throws what
 * {@link episodeCredit} would. A pass from logged values spends no promise per episode.
 */
export function episodeCreditNow(input: EpisodeCreditInput): EpisodeCreditOutput | undefined {
  const { episode, method } = input;
  if (episode.agents.length === 0) throw new Error('the episode has no agents');
  switch (method) {
    case 'shared':
    case 'routing':
      return sharedOrRouting(episode, method);
    case 'loo': {
      const values = input.values();
      const removals = looRemovals(episode, values.full);
      return values.resolveLogged(looMasks(values.full, removals))
        ? single(method, looRows(input, values, removals))
        : undefined;
    }
    case 'shapley': {
      const masks = shapleyMasks(input.episode);
      const values = input.values();
      return values.resolveLogged(masks) ? single(method, shapleyRows(input.episode, values, masks)) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Monte-Carlo Shapley rows (credit-methods.md §3.8): `estimated` with their intervals, `exact` when
 * every coalition was seen, `approximate` when a value used removed an agent others read.
 */
async function monteCarloRows(input: EpisodeCreditInput): Promise<CreditRow[]> {
  const values = input.values();
  const r = await monteCarloCredit(values, input.monteCarlo);
  return agentRows(
    input.episode,
    r.values,
    estimateProvenance(values, r),
    Array.from(r.values, (_, i) => estimateInterval(r, i)),
  );
}

/** The two methods that read no coalition value: the shared reward, and routing from the logged decision. */
function sharedOrRouting(episode: CreditEpisode, method: 'shared' | 'routing'): EpisodeCreditOutput {
  if (method === 'routing') return routingCredit(episode);
  return single(
    method,
    agentRows(
      episode,
      Float64Array.from(episode.agents, () => requireReward(episode)),
      { source: 'logged', status: 'exact' },
    ),
  );
}

function single(method: string, rows: CreditRow[]): EpisodeCreditOutput {
  return { rows: new Map([[method, rows]]) };
}

function requireReward(episode: CreditEpisode): number {
  if (episode.reward === null) throw new NotIdentifiableError('the episode logs no team reward', remedies.reward);
  return episode.reward;
}

/** Other interventions a leave-one-out may use when no removal is logged, in order of preference. */
const looInterventions = ['empty', 'placeholder', 'resample_self', 'resample_ref', 'replace_text'];

/**
 * Leave-one-out `v(N) − v(N∖{i})` (credit-methods.md §3.3) for any team size. `v(N∖{i})` is the
 * logged removal, else another logged intervention on agent i alone (the row names which), else a
 * cached or evaluated removal. Each row's status and sources are those of its two values.
 */
async function looCredit(input: EpisodeCreditInput): Promise<CreditRow[]> {
  const values = input.values();
  const removals = looRemovals(input.episode, values.full);
  await values.require(looMasks(values.full, removals));
  return looRows(input, values, removals);
}

/** One agent's removal: the team less i, and a logged alternative when no removal of i is logged. */
interface LooRemoval {
  readonly agent: CreditAgent;
  readonly without: bigint;
  readonly alternative: LoggedCounterfactual | undefined;
}

function looRemovals(episode: CreditEpisode, full: bigint): LooRemoval[] {
  return episode.agents.map((agent, i) => {
    const without = full & ~(1n << BigInt(i));
    return { agent, without, alternative: alternativeCounterfactual(episode, without, i) };
  });
}

/** The values a leave-one-out reads: v(N), and v(N∖{i}) for each i without a logged alternative. */
function looMasks(full: bigint, removals: readonly LooRemoval[]): bigint[] {
  const masks = [full];
  for (const r of removals) if (r.alternative === undefined) masks.push(r.without);
  return masks;
}

/** The rows of a leave-one-out whose values are resolved. */
function looRows(input: EpisodeCreditInput, values: CoalitionValues, removals: readonly LooRemoval[]): CreditRow[] {
  const episode = input.episode;
  const factual = values.info(values.full);
  return removals.map(({ agent, without, alternative }) => {
    const counterfactual: ValueInfo = alternative
      ? {
          value: alternative.value,
          source: 'logged',
          exact: alternative.replayed !== false || values.checkedExactly(without),
        }
      : values.info(without);
    const evaluated = counterfactual.source === 'logged' ? 'remove' : (input.intervention ?? 'remove');
    return agentRow(
      episode.episodeId,
      agent.agentId,
      factual.value - counterfactual.value,
      provenanceOf([factual, counterfactual]),
      alternative?.intervention ?? evaluated,
    );
  });
}

/** A logged non-removal counterfactual of agent i alone (`without`: the team less i), when no removal of i is logged. */
function alternativeCounterfactual(
  episode: CreditEpisode,
  without: bigint,
  i: number,
): LoggedCounterfactual | undefined {
  if (episode.loggedCoalitions.has(without)) return undefined;
  const bit = 1n << BigInt(i);
  const own = episode.loggedCounterfactuals.filter((cf) => cf.removed === bit);
  for (const kind of looInterventions) {
    const found = own.find((cf) => cf.intervention === kind);
    if (found) return found;
  }
  return undefined;
}

async function shapleyCredit(input: EpisodeCreditInput): Promise<CreditRow[]> {
  const masks = shapleyMasks(input.episode);
  const values = input.values();
  await values.require(masks);
  return shapleyRows(input.episode, values, masks);
}

/** Every coalition of the episode's agents (exact Shapley reads them all); refused above {@link maxExactAgents}. */
function shapleyMasks(episode: CreditEpisode): bigint[] {
  const n = episode.agents.length;
  if (n > maxExactAgents) {
    throw new Error(
      `exact Shapley needs all 2^${n} coalitions and is refused above ${maxExactAgents} agents: use shapley-mc for more than ${maxExactAgents} agents (Monte-Carlo, with intervals)`,
    );
  }
  return Array.from({ length: 1 << n }, (_, mask) => BigInt(mask));
}

function shapleyRows(episode: CreditEpisode, values: CoalitionValues, masks: readonly bigint[]): CreditRow[] {
  const phi = shapleyValues(coalitionTable(episode.agents.length, (mask) => values.value(BigInt(mask))));
  return agentRows(episode, phi, provenanceOf(masks.map((m) => values.info(m))));
}

/**
 * Routing credit from the logged decision (credit-methods.md §3.4–3.5): the IPW marginal
 * contribution and the standalone IPW estimate are single-decision estimates (`estimated`);
 * winner-take-all is exactly what the selected expert received (`exact`).
 */
function routingCredit(episode: CreditEpisode): EpisodeCreditOutput {
  const routing = episode.routing;
  if (!routing) {
    throw new NotIdentifiableError(
      'routing credit needs the logged router probabilities of every expert and the selected one; this episode logs no routing decision',
      remedies.routing,
    );
  }
  const estimate = routingEstimates(
    routing.probs,
    routing.selected,
    requireReward(episode),
    routing.behaviourProbs,
    episode.agents.map((a) => a.name),
  );
  if (!estimate.ok) throw new NotIdentifiableError(estimate.error, remedies.routing);
  const logged = joinSources(['logged']);
  return {
    rows: new Map([
      ['routing', agentRows(episode, estimate.value.mc, { source: logged, status: 'estimated' })],
      ['wta', agentRows(episode, estimate.value.wta, { source: logged, status: 'exact' })],
      ['routing-ipw', agentRows(episode, estimate.value.ipw, { source: logged, status: 'estimated' })],
    ]),
  };
}
