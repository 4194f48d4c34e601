/**
 * The flags covering each episode, stored per (run, episode, kind) in `episode_flag` (migration 0013)
 * so the episode table sorts and filters by them from an index instead of recounting every episode.
 *
 * What covers an episode is defined once, in {@link flagCoverSql}: an episode-scope flag naming the
 * episode, or a step-scope flag whose `lo..hi` window holds the episode's step (run-scope flags
 * cover no episode). Kind '' holds the count over every kind (the table's flags column); an
 * episode no flag covers has no row.
 */
import type { Db, Statement } from './database';

/** The `kind` of the row counting every kind's flags together. */
export const everyKind = '';

const stepLo = `CAST(substr(f.scope_id, 1, instr(f.scope_id, '..') - 1) AS INTEGER)`;
const stepHi = `CAST(substr(f.scope_id, instr(f.scope_id, '..') + 2) AS INTEGER)`;

/**
 * One row (run_id, episode_id, kind) per flag covering an episode, over the episodes of `episodes`
 * (a FROM item aliased `e`, e.g. `episode e`) that `where` keeps (a condition on `e` and `f`).
 */
export function flagCoverSql(episodes: string, where: string): string {
  return `
    SELECT e.run_id, e.episode_id, f.kind FROM ${episodes} JOIN flag f
      ON f.run_id = e.run_id AND f.scope_kind = 'episode' AND f.scope_id = e.external_id WHERE ${where}
    UNION ALL
    SELECT e.run_id, e.episode_id, f.kind FROM flag f JOIN ${episodes}
      ON e.run_id = f.run_id AND e.train_step BETWEEN ${stepLo} AND ${stepHi}
    WHERE f.scope_kind = 'step' AND instr(f.scope_id, '..') > 0 AND ${where}`;
}

/**
 * The `episode_flag` rows (run_id, episode_id, kind, n) of the covering rows `cover` yields: each
 * row counts once under its kind and once under {@link everyKind} (no WITH: triggers use it too).
 */
export function flagCountRowsSql(cover: string): string {
  const kind = `CASE WHEN x.every THEN '${everyKind}' ELSE c.kind END`;
  return `
    SELECT c.run_id, c.episode_id, ${kind}, count(*) FROM (${cover}) c CROSS JOIN (SELECT 0 AS every UNION ALL SELECT 1) x
    GROUP BY c.run_id, c.episode_id, ${kind}`;
}

/** Rebuilds the flag counts of every episode of run `:run` (after its flags were replaced). */
export const rebuildRunFlagCountsSql = `
  INSERT INTO episode_flag (run_id, episode_id, kind, n)
  ${flagCountRowsSql(flagCoverSql('episode e', 'f.run_id = :run'))}`;

/** Keeps `episode_flag` in step with the run's flags: the audit calls it when it replaces them. */
export class EpisodeFlagCounts {
  private readonly clearStmt: Statement;
  private readonly rebuildStmt: Statement;

  constructor(db: Db) {
    this.clearStmt = db.prepare('DELETE FROM episode_flag WHERE run_id = :run');
    this.rebuildStmt = db.prepare(rebuildRunFlagCountsSql);
  }

  /** Recounts the flags covering each episode of the run from its stored flags. */
  rebuild(runId: number): void {
    this.clearStmt.run({ run: runId });
    this.rebuildStmt.run({ run: runId });
  }
}
