import type { CompactEpisode } from '../../core/indexing';
import { NotIdentifiableError, type ComputedStatus } from '../../core/provenance';
import { inSplit } from '../../core/split';
import { CoalitionValues, type CoalitionValueSources, type ValueCounters } from '../credit/coalitionValues';
import { episodeCredit } from '../credit/episodeCredit';
import { defaultMonteCarlo } from '../credit/monteCarloCredit';
import { readsEarlierMessages } from '../credit/runState';
import type { TraceCreditChoice } from './traceCreditChoice';
import { traceCreditEpisode, type TraceEpisodePlace } from './traceCreditEpisode';

/** One agent's credit in an episode: agent, value, status, sources (as CreditRow has them). */
export type CreditDigest = readonly (readonly [agent: string, value: number, status: ComputedStatus, source: string])[];

/** Why an episode has no credit: the data cannot answer (with what would), or the computation failed. */
export interface ProblemDigest {
  readonly reason: string;
  readonly notIdentifiable: boolean;
  readonly remedy?: string;
}

/**
 * What a pass that stores nothing keeps of an episode: what decides whether it counts (its id, the
 * content hash of rolling-buffer importers, its place) and its credit, or its problem; neither when
 * it is outside the split or steps asked for. Small, so that a parse worker can send it instead of
 * the episode (engine/traceCredit/traceCreditWorker.ts).
 */
export interface EpisodeDigest {
  readonly digest: true;
  readonly id: string;
  readonly line: number;
  readonly offset: number;
  readonly step: number | null;
  readonly contentHash?: string;
  readonly credit?: CreditDigest;
  readonly problem?: ProblemDigest;
  /** Logged values the credit read. */
  readonly logged: number;
}

export function isDigest(e: CompactEpisode | EpisodeDigest): e is EpisodeDigest {
  return 'digest' in e;
}

/**
 * Computes one episode's credit from its logged values with the engine's own episodeCredit (no
 * evaluator, no cache): exactly what `credit --method M` stores for it, since the episode it reads
 * is built as the index's reader builds it (traceCreditEpisode.ts).
 */
export async function digestEpisode(
  e: CompactEpisode,
  place: TraceEpisodePlace & { readonly mechanism?: string },
  choice: Pick<TraceCreditChoice, 'method' | 'split' | 'steps'>,
): Promise<EpisodeDigest> {
  const base = {
    digest: true as const,
    id: e.id,
    line: e.line,
    offset: e.offset,
    step: e.step,
    ...(e.contentHash !== undefined ? { contentHash: e.contentHash } : {}),
  };
  const step = e.step ?? 0;
  if (!inSplit(e.split, choice.split) || step < choice.steps[0] || step > choice.steps[1])
    return { ...base, logged: 0 };
  const counters: ValueCounters = { logged: 0, cached: 0, evaluated: 0 };
  const sources: CoalitionValueSources = {
    loadCache: () => new Map(),
    evaluator: undefined,
    counters,
    fresh: [],
    useLogged: true,
    sequential: readsEarlierMessages(place.mechanism ?? null),
    trust: () => Promise.resolve(undefined),
  };
  const episode = traceCreditEpisode(e, place);
  try {
    const make = (kind: 'agents' | 'messages') => () => new CoalitionValues(episode, kind, sources);
    const out = await episodeCredit({
      episode,
      method: choice.method,
      values: make('agents'),
      messageValues: make('messages'),
      monteCarlo: defaultMonteCarlo,
    });
    const rows = (out.rows.get(choice.method) ?? []).filter((r) => r.messageSeq === null);
    const credit: CreditDigest = rows.map((r) => [
      episode.agents[r.agentId]?.name ?? String(r.agentId),
      r.value,
      r.status,
      r.source,
    ]);
    return { ...base, credit, logged: counters.logged };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const unidentified = error instanceof NotIdentifiableError;
    const problem: ProblemDigest = {
      reason,
      notIdentifiable: unidentified,
      ...(unidentified ? { remedy: error.remedy } : {}),
    };
    return { ...base, problem, logged: counters.logged };
  }
}
