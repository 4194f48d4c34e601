import type { CreditEpisode, CreditRow } from '../../core/creditInput';
import { coalitionTable } from '../../credit/game/coalitionGame';
import { leaveOneOutFrom } from '../../credit/game/leaveOneOut';
import { shapleyValues } from '../../credit/game/shapleyValues';
import { routingEstimates } from '../../credit/signals/routingEstimates';
import type { CoalitionValues } from './coalitionValues';
import { maxExactAgents, type CreditMethodName } from './creditMethod';
import { messageCredit, type MessageCreditResult } from './messageCredit';
import { monteCarloCredit, type MonteCarloSettings } from './monteCarloCredit';

/** Credit rows of one episode, by method name (a routing pass also yields `wta` and `routing-ipw`). */
export type EpisodeCreditRows = Map<string, CreditRow[]>;

export interface EpisodeCreditInput {
  readonly episode: CreditEpisode;
  readonly method: CreditMethodName;
  /** Values by agent mask, and by message mask for per-message methods. */
  readonly values: () => CoalitionValues;
  readonly messageValues: () => CoalitionValues;
  readonly monteCarlo: MonteCarloSettings;
  /** Last speaker's roster index: removing any other agent without a replay is approximate. */
  readonly lastSpeaker: number | undefined;
}

export interface EpisodeCreditOutput {
  readonly rows: EpisodeCreditRows;
  /** Per-message extras (first error) for per-message methods. */
  readonly messages?: MessageCreditResult;
}

/** Computes one method's credit for one episode; throws an Error whose message says why it cannot. */
export async function episodeCredit(input: EpisodeCreditInput): Promise<EpisodeCreditOutput> {
  const { episode, method } = input;
  const n = episode.agents.length;
  if (n === 0) throw new Error('the episode has no agents');
  switch (method) {
    case 'shared':
      return single(method, agentRows(episode, Float64Array.from(episode.agents, () => requireReward(episode)), 'logged'));
    case 'routing':
      return routingCredit(episode);
    case 'loo':
      return single(method, await looCredit(input));
    case 'shapley':
      return single(method, await shapleyCredit(input));
    case 'shapley-mc':
      return single(method, await monteCarloCredit(input.values(), input.monteCarlo));
    case 'prefix':
    case 'owen': {
      const result = await messageCredit(input.messageValues(), method);
      return { rows: new Map([[method, result.rows]]), messages: result };
    }
  }
}

function single(method: string, rows: CreditRow[]): EpisodeCreditOutput {
  return { rows: new Map([[method, rows]]) };
}

function requireReward(episode: CreditEpisode): number {
  if (episode.reward === null) throw new Error('the episode logs no team reward');
  return episode.reward;
}

/** One row per agent, in roster order. */
export function agentRows(episode: CreditEpisode, values: ArrayLike<number>, source: CreditRow['source'], extra: Partial<CreditRow>[] = []): CreditRow[] {
  return episode.agents.map((agent, i) => ({
    episodeId: episode.episodeId,
    agentId: agent.agentId,
    messageSeq: null,
    value: values[i] ?? Number.NaN,
    stderr: null,
    ciLow: null,
    ciHigh: null,
    n: null,
    approximate: false,
    source,
    advantage: null,
    ...extra[i],
  }));
}

async function looCredit(input: EpisodeCreditInput): Promise<CreditRow[]> {
  const values = input.values();
  const n = input.episode.agents.length;
  const full = (1 << n) - 1;
  const without = Array.from({ length: n }, (_, i) => full & ~(1 << i));
  await values.require([full, ...without]);
  const credit = leaveOneOutFrom(values.value(full), without.map((mask) => values.value(mask)));
  // Removing an agent whose output later agents read, without re-generating them, is approximate.
  const approximate = without.map((mask, i) => values.unreplayed.has(mask) && input.lastSpeaker !== undefined && i !== input.lastSpeaker);
  return agentRows(input.episode, credit, values.source(), approximate.map((a) => ({ approximate: a })));
}

async function shapleyCredit(input: EpisodeCreditInput): Promise<CreditRow[]> {
  const n = input.episode.agents.length;
  if (n > maxExactAgents) throw new Error(`exact Shapley needs 2^${n} coalitions; use shapley-mc for more than ${maxExactAgents} agents`);
  const values = input.values();
  const masks = Array.from({ length: 1 << n }, (_, mask) => mask);
  await values.require(masks);
  const phi = shapleyValues(coalitionTable(n, (mask) => values.value(mask)));
  const approximate = values.unreplayed.size > 0 && input.lastSpeaker !== undefined && n > 1;
  return agentRows(input.episode, phi, values.source(), input.episode.agents.map(() => ({ approximate })));
}

function routingCredit(episode: CreditEpisode): EpisodeCreditOutput {
  const routing = episode.routing;
  if (!routing) throw new Error('routing credit needs the logged router probabilities of all experts and the selected one; this episode has none');
  const estimate = routingEstimates(routing.probs, routing.selected, requireReward(episode), routing.behaviourProbs, episode.agents.map((a) => a.name));
  if (!estimate.ok) throw new Error(estimate.error);
  return {
    rows: new Map([
      ['routing', agentRows(episode, estimate.value.mc, 'logged')],
      ['wta', agentRows(episode, estimate.value.wta, 'logged')],
      ['routing-ipw', agentRows(episode, estimate.value.ipw, 'logged')],
    ]),
  };
}
