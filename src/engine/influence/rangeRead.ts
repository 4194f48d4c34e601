import type { CreditEpisode } from '../../core/creditInput';
import type { InfluenceEdgeView } from '../../protocol/influence';
import type { EpisodeFingerprint } from '../../store/influenceRepository';
import { InfluenceAggregate } from './influenceAggregate';

/** The fingerprint of no episode. */
export const noEpisodes: EpisodeFingerprint = { count: 0, ids: 0, offsets: 0, lengths: 0, lines: 0 };

/**
 * What the aggregate of one (run, step range) has read so far (credit-methods.md §3.17): the mean
 * edges, the agents seen, the last row id read and the fingerprint of the episodes read. Episodes are
 * added in id order, so adding those after `lastId` gives the same sums, in the same order, as
 * reading the range again from the start.
 */
export class RangeRead {
  readonly aggregate = new InfluenceAggregate();
  readonly agents = new Set<string>();
  lastId = 0;
  fingerprint: EpisodeFingerprint = noEpisodes;

  /** `mechanism`: the run's, as read; a different one later means rebuilding (it decides exactness). */
  constructor(readonly mechanism: string | null) {}

  get read(): number {
    return this.fingerprint.count;
  }

  /** Adds one episode (with a larger row id than any added before) and its edges. */
  add(episode: CreditEpisode, edges: readonly InfluenceEdgeView[]): void {
    if (episode.episodeId <= this.lastId) throw new Error(`episode ${String(episode.episodeId)} was already read`);
    for (const a of episode.agents) this.agents.add(a.name);
    this.aggregate.add(edges);
    this.lastId = episode.episodeId;
    const f = this.fingerprint;
    this.fingerprint = {
      count: f.count + 1,
      ids: f.ids + episode.episodeId,
      offsets: f.offsets + episode.offset,
      lengths: f.lengths + episode.length,
      lines: f.lines + episode.line,
    };
  }

  /** True when `now` (the index's fingerprint of the same episodes) says none of them was removed or replaced. */
  unchanged(now: EpisodeFingerprint): boolean {
    const f = this.fingerprint;
    return (
      f.count === now.count &&
      f.ids === now.ids &&
      f.offsets === now.offsets &&
      f.lengths === now.lengths &&
      f.lines === now.lines
    );
  }
}
