import type { CreditRow } from '../../core/creditInput';

/** One accepted episode's rows, by method. */
type EpisodeRows = ReadonlyMap<string, readonly CreditRow[]>;

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
 */
export class GroupAdvantages {
  contiguous = true;
  private readonly closed = new Set<string>();
  private openGroup: string | undefined;
  private held: EpisodeRows[] = [];

  constructor(private readonly advantages: (values: Float64Array) => Float64Array) {}

  /**
   * Takes one episode's rows; returns the rows now ready to write (its own when it has no group,
   * those of the group it closes, or none while its group is open).
   */
  add(group: string | null, rows: EpisodeRows): EpisodeRows[] {
    if (group === null || !this.contiguous) return [rows];
    if (group === this.openGroup) {
      this.held.push(rows);
      return [];
    }
    const ready = this.close();
    if (this.closed.has(group)) {
      this.contiguous = false;
      return [...ready, rows];
    }
    this.openGroup = group;
    this.held = [rows];
    return ready;
  }

  /** Closes the open group (the end of the pass); returns its rows with their advantages set. */
  close(): EpisodeRows[] {
    const rows = this.held;
    if (this.openGroup !== undefined) this.closed.add(this.openGroup);
    this.openGroup = undefined;
    this.held = [];
    if (this.contiguous) this.setAdvantages(rows);
    return rows;
  }

  /** Sets the advantage of the agent-level rows of one group, per method and agent, in episode order. */
  private setAdvantages(episodes: readonly EpisodeRows[]): void {
    const series = new Map<string, CreditRow[]>();
    for (const byMethod of episodes)
      for (const [method, rows] of byMethod)
        for (const row of rows) {
          if (row.messageSeq !== null) continue;
          const key = `${method}\u0000${row.agentId}`;
          const list = series.get(key);
          if (list) list.push(row);
          else series.set(key, [row]);
        }
    for (const rows of series.values()) {
      rows.sort((a, b) => a.episodeId - b.episodeId);
      // As read back from the index: a NaN value is stored as NULL, which the stored-rows update reads as 0.
      const values = this.advantages(Float64Array.from(rows, (r) => (Number.isNaN(r.value) ? 0 : r.value)));
      rows.forEach((row, k) => (row.advantage = values[k] ?? Number.NaN));
    }
  }
}
