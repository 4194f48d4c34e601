import type { CreditEpisode } from '../../core/creditInput';
import type { InfluenceEdgeView, InfluenceGraphView } from '../../protocol/influence';
import { CreditInputRepository } from '../../store/creditInputRepository';
import type { Db } from '../../store/database';
import { InfluenceRepository, type StoredInfluenceEdge } from '../../store/influenceRepository';
import { readsEarlierMessages } from '../credit/runState';
import { counterfactualInfluence } from './counterfactualInfluence';
import { influenceGraph } from './influenceGraph';
import { loggedInfluence } from './loggedInfluence';
import { RangeRead } from './rangeRead';
import { replayedEdges, type SourcedValue } from './replayedEdges';

/** An aggregate reads at most this many episodes of its range (the first, in id order), so a view stays quick. */
export const maxInfluenceEpisodes = 20_000;

/** Episodes read per page of an aggregate (the credit input's page size). */
const pageSize = 500;

/** Step ranges whose aggregates are kept (the most recently asked); a brushed range is one more. */
const keptRanges = 16;

/** What the last {@link InfluenceService.run} did: read the range again, or only what was appended to it. */
export interface InfluencePass {
  readonly rebuilt: boolean;
  readonly episodesRead: number;
}

/**
 * The influence graph of an episode or of a run's step range (credit-methods.md §3.17), from what
 * the index holds: logged connection weights and logged counterfactual values, and in an episode's
 * graph the replayed influence cached by a replay pass (replayedInfluence.ts). Read-only; no
 * evaluator is called. One service lives with an open index: it keeps each step range's aggregate
 * and, when the index only grew, adds the episodes appended since (§3.17, "Aggregate").
 */
export class InfluenceService {
  private readonly input: CreditInputRepository;
  private readonly logged: InfluenceRepository;
  private readonly ranges = new Map<string, RangeRead>();
  /** Runs one aggregate pass at a time: two passes adding to the same range would count episodes twice. */
  private tail: Promise<unknown> = Promise.resolve();
  private pass: InfluencePass = { rebuilt: false, episodesRead: 0 };

  /** `limit`: episodes an aggregate reads at most (a test lowers it). */
  constructor(
    db: Db,
    private readonly limit = maxInfluenceEpisodes,
  ) {
    this.input = new CreditInputRepository(db);
    this.logged = new InfluenceRepository(db);
  }

  /** What the last completed {@link run} read. */
  get lastPass(): InfluencePass {
    return this.pass;
  }

  /**
   * The graph of one episode (row id); undefined when the index has no such episode. Its replayed
   * edges are `replayed` (a replay pass's values, each saying whether it was replayed or cached), else
   * those of the last replay cached in the index.
   */
  async episode(
    episodeId: number,
    replayed?: ReadonlyMap<string, SourcedValue>,
  ): Promise<InfluenceGraphView | undefined> {
    const run = this.logged.runOf(episodeId);
    if (!run) return undefined;
    const [episode] = [...this.input.episodes(run.runId, -Infinity, Infinity, 1, [episodeId])];
    if (!episode) return undefined;
    const stored = this.logged.edgesBetween(episodeId, episodeId).get(episodeId) ?? [];
    const edges = [
      ...(await episodeEdges(episode, stored, readsEarlierMessages(run.mechanism))),
      ...replayedEdges(episode, replayed ?? this.cachedReplay(episodeId)),
    ];
    const names = episode.agents.map((a) => a.name);
    return influenceGraph(names, edges, 1, 0, episode.messageAuthors);
  }

  /**
   * The mean graph of the episodes of run `runId` with steps in [stepFrom, stepTo] (null: open),
   * reading at most `limit` ({@link maxInfluenceEpisodes}) episodes in id order (the rest are counted as skipped).
   * A range asked before is brought up to date by reading only the episodes with larger row ids,
   * unless one it read was removed or replaced (its fingerprint changed) or the run's mechanism
   * changed: then it is read again.
   */
  run(runId: number, stepFrom: number | null, stepTo: number | null): Promise<InfluenceGraphView> {
    const next = this.tail.then(() => this.readRange(runId, stepFrom, stepTo));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private cachedReplay(episodeId: number): Map<string, SourcedValue> {
    const found = this.logged.replayedValues(episodeId)?.values ?? new Map<string, number>();
    return new Map([...found].map(([key, value]) => [key, { value, source: 'replayed (cached in the index)' }]));
  }

  /** Forgets every kept aggregate: the index changed in a way other than appended episodes. */
  clear(): void {
    this.ranges.clear();
  }

  private async readRange(runId: number, stepFrom: number | null, stepTo: number | null): Promise<InfluenceGraphView> {
    const from = stepFrom ?? -Infinity;
    const to = stepTo ?? Infinity;
    const mechanism = this.input.runs().find((r) => r.runId === runId)?.mechanism ?? null;
    const key = JSON.stringify([runId, stepFrom, stepTo]);
    const kept = this.ranges.get(key);
    const reusable =
      kept?.mechanism === mechanism && kept.unchanged(this.logged.fingerprint(runId, from, to, kept.lastId));
    const range = reusable ? kept : new RangeRead(mechanism);
    this.ranges.delete(key);
    this.ranges.set(key, range);
    for (const old of this.ranges.keys()) if (this.ranges.size > keptRanges) this.ranges.delete(old);
    const before = range.read;
    await this.readAfter(range, runId, from, to);
    this.pass = { rebuilt: !reusable, episodesRead: range.read - before };
    const total = this.input.countEpisodes(runId, from, to);
    return influenceGraph([...range.agents], range.aggregate.edges(), range.read, total - range.read);
  }

  /** Adds the range's episodes after the last one `range` read, a page at a time, up to the bound. */
  private async readAfter(range: RangeRead, runId: number, from: number, to: number): Promise<void> {
    const sequential = readsEarlierMessages(range.mechanism);
    let page: CreditEpisode[] = [];
    const flush = async (): Promise<void> => {
      const first = page[0]?.episodeId ?? 0;
      const stored = this.logged.edgesBetween(first, page[page.length - 1]?.episodeId ?? first);
      for (const e of page) range.add(e, await episodeEdges(e, stored.get(e.episodeId) ?? [], sequential));
      page = [];
    };
    let room = this.limit - range.read;
    if (room <= 0) return;
    for (const episode of this.input.episodes(runId, from, to, pageSize, undefined, 'all', range.lastId)) {
      if (room-- <= 0) break;
      page.push(episode);
      if (page.length >= pageSize) await flush();
    }
    await flush();
  }
}

async function episodeEdges(
  episode: CreditEpisode,
  stored: readonly StoredInfluenceEdge[],
  sequential: boolean,
): Promise<InfluenceEdgeView[]> {
  return [...loggedInfluence(stored), ...(await counterfactualInfluence(episode, sequential))];
}
