import type { Db } from './database';

/**
 * The CTE `episode_flag(flag_id, kind, external_id)` of run `:run`: each episode-scope flag with every
 * episode it is about, the one its scope names and those its `locations` list (a silent agent's
 * episodes). Step- and run-scope flags (windows of training steps) are about no single episode, so
 * they mark the run and its steps but never an episode or a group row. Unreadable evidence JSON
 * counts as listing no location.
 */
export const episodeFlagCte = `
  episode_flag AS MATERIALIZED (
    SELECT flag_id, kind, scope_id AS external_id FROM flag WHERE run_id = :run AND scope_kind = 'episode'
    UNION
    SELECT f.flag_id, f.kind, l.value ->> '$.episode'
    FROM flag f, json_each(CASE WHEN json_valid(f.evidence_json) THEN f.evidence_json ELSE '{}' END, '$.locations') l
    WHERE f.run_id = :run AND f.scope_kind = 'episode' AND l.type = 'object')`;

/** SQL expression: how many flags are about the episode row `alias` (needs {@link episodeFlagCte} in the WITH). */
export function episodeFlagCountSql(alias: string): string {
  return `(SELECT count(*) FROM episode_flag WHERE external_id = ${alias}.external_id)`;
}

const countsSql = `
  WITH ${episodeFlagCte}
  SELECT e.external_id, ${episodeFlagCountSql('e')} AS flags
  FROM episode e WHERE e.run_id = :run AND e.external_id IN (SELECT value FROM json_each(:ids))`;

/**
 * The number of flags about each listed episode of a run (see {@link episodeFlagCte}): what an
 * episode row's flag badge or column shows. Ids the run does not hold are left out.
 */
export function episodeFlagCounts(db: Db, runId: number, externalIds: readonly string[]): Map<string, number> {
  const rows = db
    .prepare<{ external_id: string; flags: number }>(countsSql)
    .all({ run: runId, ids: JSON.stringify(externalIds) });
  return new Map(rows.map((r) => [r.external_id, r.flags]));
}
