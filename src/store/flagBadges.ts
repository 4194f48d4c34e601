import type { Db } from './database';

/**
 * SQL expression: how many flags are about the episode row `alias` of run `:run` — its rows in
 * `flag_episode`, which episodeFlags.ts defines (episode-scope flags naming or listing it; a window
 * of training steps marks the run and its steps, never an episode or a group row). The same count
 * as the episode table's flag column.
 */
export function episodeFlagCountSql(alias: string): string {
  return `(SELECT count(*) FROM flag_episode fe WHERE fe.run_id = :run AND fe.external_id = ${alias}.external_id)`;
}

const countsSql = `
  SELECT e.external_id, ${episodeFlagCountSql('e')} AS flags
  FROM episode e WHERE e.run_id = :run AND e.external_id IN (SELECT value FROM json_each(:ids))`;

/**
 * The number of flags about each listed episode of a run (see {@link episodeFlagCountSql}): what an
 * episode row's flag badge or column shows. Ids the run does not hold are left out.
 */
export function episodeFlagCounts(db: Db, runId: number, externalIds: readonly string[]): Map<string, number> {
  const rows = db
    .prepare<{ external_id: string; flags: number }>(countsSql)
    .all({ run: runId, ids: JSON.stringify(externalIds) });
  return new Map(rows.map((r) => [r.external_id, r.flags]));
}
