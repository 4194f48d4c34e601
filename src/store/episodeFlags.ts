/**
 * The flags about each episode, stored per (run, episode, kind) in `episode_flag` (migration 0013)
 * so the episode table sorts and filters by them from an index instead of recounting every episode.
 *
 * Which flags are about an episode is defined once, in {@link flagEpisodesSql}, and kept in
 * `flag_episode` (migration 0016) as flags are written: an episode-scope flag is about the episode
 * its scope names and every episode its `locations` list (a silent agent's episodes). Step- and
 * run-scope flags (windows of training steps) are about no single episode: they mark the run and
 * its steps (browseRepository.ts), so a run-wide window does not badge every row. The table's flag
 * column, its flags sort and filter (these counts) and the tree's badges (flagBadges.ts) all count
 * `flag_episode`. Kind '' holds the count over every kind; an episode no flag is about has no row.
 */
import type { Db, Statement } from './database';

/** The `kind` of the row counting every kind's flags together. */
export const everyKind = '';

/**
 * The `flag_episode` rows (run_id, external_id, flag_id, kind) of the flags of `flags` (a FROM item
 * aliased `f`, e.g. `flag f`): each episode-scope flag with the episode its scope names and those
 * its evidence's `locations` list. Unreadable evidence JSON lists no location; a flag naming an
 * episode twice yields one row (UNION).
 */
export function flagEpisodesSql(flags: string): string {
  return `
    SELECT f.run_id, f.scope_id, f.flag_id, f.kind FROM ${flags} WHERE f.scope_kind = 'episode'
    UNION
    SELECT f.run_id, l.value ->> '$.episode', f.flag_id, f.kind
    FROM ${flags}, json_each(CASE WHEN json_valid(f.evidence_json) THEN f.evidence_json ELSE '{}' END, '$.locations') l
    WHERE f.scope_kind = 'episode' AND l.type = 'object' AND json_type(l.value, '$.episode') = 'text'`;
}

/**
 * One row (run_id, episode_id, kind) per flag about an episode, over the episodes of `episodes`
 * (a FROM item aliased `e`, e.g. `episode e`) that `where` keeps (a condition on `e` and `fe`).
 */
export function flagCoverSql(episodes: string, where: string): string {
  return `
    SELECT e.run_id, e.episode_id, fe.kind FROM ${episodes} JOIN flag_episode fe
      ON fe.run_id = e.run_id AND fe.external_id = e.external_id WHERE ${where}`;
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
  ${flagCountRowsSql(flagCoverSql('episode e', 'fe.run_id = :run'))}`;

/** Keeps `episode_flag` in step with the run's flags: the audit calls it when it replaces them. */
export class EpisodeFlagCounts {
  private readonly clearStmt: Statement;
  private readonly rebuildStmt: Statement;

  constructor(db: Db) {
    this.clearStmt = db.prepare('DELETE FROM episode_flag WHERE run_id = :run');
    this.rebuildStmt = db.prepare(rebuildRunFlagCountsSql);
  }

  /** Recounts the flags about each episode of the run from its stored flags. */
  rebuild(runId: number): void {
    this.clearStmt.run({ run: runId });
    this.rebuildStmt.run({ run: runId });
  }
}
