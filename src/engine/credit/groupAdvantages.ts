import type { CreditEpisode, CreditRow } from '../../core/creditInput';

/** One accepted episode's rows, by method. */
type EpisodeRows = ReadonlyMap<string, readonly CreditRow[]>;

/** An episode of the pass with its rows by method (none: it failed). */
export interface PassEpisode {
  readonly episode: CreditEpisode;
  readonly rows: EpisodeRows;
}

/**
 * GRPO group advantages set on the rows before they are written, for a pass that writes every row
 * of its parameter set (nothing of it stored before): an episode's rows wait until its group is
 * complete, then each (method, agent) of the group gets `advantages(values in episode order)` — what
 * `CreditRepository.updateGroupAdvantages` computes from the stored rows — so the pass needs neither
 * that read of the run's rows by group nor an update of each row afterwards.
 *
 * A group is complete when an episode of another group arrives: groups are contiguous in episode
 * order in the traces we know. A group that comes back after it was closed makes {@link contiguous}
 * false; the caller then runs the stored-rows update, which overwrites every advantage.
 *
 * Failed episodes are added too (without rows): they belong to their group as much as the others,
 * so that `onClose` sees each group whole, in the order the pass finished its episodes.
 */
export class GroupAdvantages {
  contiguous = true;
  private readonly closed = new Set<string>();
  private openGroup: string | undefined;
  private held: PassEpisode[] = [];

  /** `onClose`: each closed group (or episode without a group) while groups are contiguous, its advantages set. */
  constructor(
    private readonly advantages: (values: Float64Array) => Float64Array,
    private readonly onClose?: (episodes: readonly PassEpisode[]) => void,
  ) {}

  /**
   * Takes one episode's rows; returns the rows now ready to write (its own when it has no group,
   * those of the group it closes, or none while its group is open).
   */
  add(episode: CreditEpisode, rows: EpisodeRows): EpisodeRows[] {
    const group = episode.group;
    if (!this.contiguous) return [rows];
    if (group === null) {
      this.onClose?.([{ episode, rows }]);
      return [rows];
    }
    if (group === this.openGroup) {
      this.held.push({ episode, rows });
      return [];
    }
    const ready = this.close();
    if (this.closed.has(group)) {
      this.contiguous = false;
      return [...ready, rows];
    }
    this.openGroup = group;
    this.held = [{ episode, rows }];
    return ready;
  }

  /** Closes the open group (the end of the pass); returns its rows with their advantages set. */
  close(): EpisodeRows[] {
    const held = this.held;
    if (this.openGroup !== undefined) this.closed.add(this.openGroup);
    this.openGroup = undefined;
    this.held = [];
    const rows = held.map((e) => e.rows);
    if (this.contiguous && held.length > 0) {
      this.setAdvantages(rows);
      this.onClose?.(held);
    }
    return rows;
  }

  /** Sets the advantage of the agent-level rows of one group, per method and agent, in episode order. */
  private setAdvantages(episodes: readonly EpisodeRows[]): void {
    // By method, then agent: no key string per row.
    const series = new Map<string, Map<number, CreditRow[]>>();
    for (const byMethod of episodes)
      for (const [method, rows] of byMethod) {
        let byAgent = series.get(method);
        if (!byAgent) series.set(method, (byAgent = new Map<number, CreditRow[]>()));
        for (const row of rows) {
          if (row.messageSeq !== null) continue;
          const list = byAgent.get(row.agentId);
          if (list) list.push(row);
          else byAgent.set(row.agentId, [row]);
        }
      }
    for (const rows of [...series.values()].flatMap((byAgent) => [...byAgent.values()])) {
      rows.sort((a, b) => a.episodeId - b.episodeId);
      // As read back from the index: a NaN value is stored as NULL, which the stored-rows update reads as 0.
      const values = this.advantages(Float64Array.from(rows, (r) => (Number.isNaN(r.value) ? 0 : r.value)));
      rows.forEach((row, k) => (row.advantage = values[k] ?? Number.NaN));
    }
  }
}
