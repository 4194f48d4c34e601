import type { CreditEpisode } from '../../core/creditInput';
import type { InfluenceEdgeView, InfluenceGraphView } from '../../protocol/influence';
import { CreditInputRepository } from '../../store/creditInputRepository';
import type { Db } from '../../store/database';
import { InfluenceRepository, type StoredInfluenceEdge } from '../../store/influenceRepository';
import { readsEarlierMessages } from '../credit/runState';
import { counterfactualInfluence } from './counterfactualInfluence';
import { InfluenceAggregate } from './influenceAggregate';
import { influenceGraph } from './influenceGraph';
import { loggedInfluence } from './loggedInfluence';

/** An aggregate reads at most this many episodes of its range (the first, in id order), so a view stays quick. */
export const maxInfluenceEpisodes = 20_000;

/** Episodes read per page of an aggregate (the credit input's page size). */
const pageSize = 500;

/**
 * The influence graph of an episode or of a run's step range (credit-methods.md §3.17), from what
 * the index holds: logged connection weights and logged counterfactual values. Read-only; no
 * evaluator is called.
 */
export class InfluenceService {
  private readonly input: CreditInputRepository;
  private readonly logged: InfluenceRepository;

  constructor(db: Db) {
    this.input = new CreditInputRepository(db);
    this.logged = new InfluenceRepository(db);
  }

  /** The graph of one episode (row id); undefined when the index has no such episode. */
  async episode(episodeId: number): Promise<InfluenceGraphView | undefined> {
    const run = this.logged.runOf(episodeId);
    if (!run) return undefined;
    const [episode] = [...this.input.episodes(run.runId, -Infinity, Infinity, 1, [episodeId])];
    if (!episode) return undefined;
    const stored = this.logged.edgesBetween(episodeId, episodeId).get(episodeId) ?? [];
    const edges = await episodeEdges(episode, stored, readsEarlierMessages(run.mechanism));
    return influenceGraph(
      episode.agents.map((a) => a.name),
      edges,
      1,
    );
  }

  /**
   * The mean graph of the episodes of run `runId` with steps in [stepFrom, stepTo] (null: open),
   * reading at most {@link maxInfluenceEpisodes} episodes in id order (the rest are counted as skipped).
   */
  async run(runId: number, stepFrom: number | null, stepTo: number | null): Promise<InfluenceGraphView> {
    const from = stepFrom ?? -Infinity;
    const to = stepTo ?? Infinity;
    const mechanism = this.input.runs().find((r) => r.runId === runId)?.mechanism ?? null;
    const total = this.input.countEpisodes(runId, from, to);
    const aggregate = new InfluenceAggregate();
    const agents = new Set<string>();
    let read = 0;
    let page: CreditEpisode[] = [];
    const flush = async (): Promise<void> => {
      const first = page[0]?.episodeId ?? 0;
      const stored = this.logged.edgesBetween(first, page[page.length - 1]?.episodeId ?? first);
      for (const e of page)
        aggregate.add(await episodeEdges(e, stored.get(e.episodeId) ?? [], readsEarlierMessages(mechanism)));
      page = [];
    };
    for (const episode of this.input.episodes(runId, from, to, pageSize)) {
      if (read >= maxInfluenceEpisodes) break;
      for (const a of episode.agents) agents.add(a.name);
      page.push(episode);
      read++;
      if (page.length >= pageSize) await flush();
    }
    await flush();
    return influenceGraph([...agents], aggregate.edges(), read, total - read);
  }
}

async function episodeEdges(
  episode: CreditEpisode,
  stored: readonly StoredInfluenceEdge[],
  sequential: boolean,
): Promise<InfluenceEdgeView[]> {
  return [...loggedInfluence(stored), ...(await counterfactualInfluence(episode, sequential))];
}
