import type { ChatClientStats } from '../../core/chat';
import type { ReplayCost } from '../../credit/replay/replayCost';
import { CreditInputRepository } from '../../store/creditInputRepository';
import { CreditRepository } from '../../store/creditRepository';
import { IndexStore } from '../../store/indexStore';
import { RunProducerRepository } from '../../store/runProducerRepository';
import { runReplaySetup, type EvaluatorChoice } from '../credit/chooseEvaluator';
import { manifestRoster } from '../credit/runCredit';
import type { ReplayDeps } from '../evaluators/replay/replayEvaluator';
import { replayContext } from '../evaluators/replay/replayEvaluator';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';
import { episodesNamed, type InfluenceJobGraph, type InfluenceJobOptions } from './influenceJob';
import { InfluenceService } from './influenceService';
import { replayEpisodeInfluence } from './replayedInfluence';

/** Messages whose outcome edge one episode replays by default (each costs a replay of what follows it). */
export const defaultMaxMessages = 40;

/** What `credit-lens influence --episode ID --replay …` asks for. */
export interface ReplayInfluenceOptions extends InfluenceJobOptions {
  readonly episode: string;
  readonly replay: Extract<EvaluatorChoice, { kind: 'replay' }>;
  /** Message → outcome edges replayed per episode at most (the first messages); default {@link defaultMaxMessages}. */
  readonly maxMessages?: number;
  /** Host services of the client (tests: a short backoff); the job adds the signal and the run's roster. */
  readonly replayDeps?: Omit<ReplayDeps, 'signal' | 'roster'>;
  readonly signal?: AbortSignal;
  readonly onWarning?: (message: string) => void;
}

/** One episode's graph with what its replay did. */
export interface ReplayedInfluenceGraph extends InfluenceJobGraph {
  readonly replay: {
    readonly messages: { readonly total: number; readonly computed: number };
    readonly notes: readonly string[];
    readonly estimate: ReplayCost;
    readonly usage: ChatClientStats;
  };
}

/**
 * Computes the replayed influence of the episodes named `options.episode` (credit-methods.md §3.17)
 * on the user's model server, stores it in the index's evaluation cache, and returns each episode's
 * graph with it. Replays only what the cache does not hold (a second run makes no call). The
 * endpoint comes only from the caller (the command line), never from the trace.
 */
export async function replayInfluence(options: ReplayInfluenceOptions): Promise<ReplayedInfluenceGraph[]> {
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  const store = IndexStore.open(location.path);
  try {
    const input = new CreditInputRepository(store.db);
    const cache = new CreditRepository(store.db);
    const producers = new RunProducerRepository(store.db);
    const service = new InfluenceService(store.db);
    const graphs: ReplayedInfluenceGraph[] = [];
    for (const found of episodesNamed(store.db, options, options.episode)) {
      const run = input.runs().find((r) => r.name === found.run);
      const [credit] = run ? [...input.episodes(run.runId, -Infinity, Infinity, 1, [found.episodeId])] : [];
      if (!run || !credit) continue;
      const roster = manifestRoster(producers.producer(run.runId).configJson);
      const setup = runReplaySetup(run, options.replay, {
        replay: {
          ...options.replayDeps,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(roster ? { roster } : {}),
        },
        ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      });
      const context = replayContext(setup.options, options.root, setup.checker, setup.deps);
      try {
        const result = await replayEpisodeInfluence(context, cache, credit, options.maxMessages ?? defaultMaxMessages);
        const graph = await service.episode(found.episodeId, result.values);
        if (!graph) continue;
        const { messages, notes, estimate } = result;
        const replay = { messages, notes, estimate, usage: context.client.stats() };
        graphs.push({ run: found.run, episode: options.episode, steps: null, graph, replay });
      } finally {
        await context.client.close();
      }
    }
    return graphs;
  } finally {
    store.close();
  }
}
