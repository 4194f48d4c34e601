import type { AgentCreditFilter } from '../core/dashboardRows';
import { creditSetId } from './creditSets';
import type { BindValue } from './database';

// The episode table's per-agent credit columns: the agent-level credit (message_seq IS NULL) of one
// parameter set (:method, :hash), per agent of the run. Agents are named by the table; their ids
// are found in the run's agent table (agent ids are per run).

export type { AgentCreditSortKey } from '../core/dashboardRows';

/** The agent an agent-credit sort key names, or undefined for another key. */
export function sortedAgent(key: string): string | undefined {
  return key.startsWith('credit:') ? key.slice('credit:'.length) : undefined;
}

/** The credit the columns read, and an optional range of one agent's credit the page keeps. */
export interface EpisodeCreditQuery {
  readonly method: string;
  readonly paramsHash: string;
}

const agentIdOf = (param: string): string => `(SELECT agent_id FROM agent WHERE run_id = :run AND name = ${param})`;

/** The page filter's condition on `e`: skipped when :creditAgent is null (a seek per episode in credit_agent_value). */
export const creditRangeCondition = (e: string): string => `
  (:creditAgent IS NULL OR EXISTS (SELECT 1 FROM credit c WHERE c.method = :method AND c.params_hash = :hash
    AND c.episode_id = ${e}.episode_id AND c.agent_id = ${agentIdOf(':creditAgent')} AND c.message_seq IS NULL
    AND c.value IS NOT NULL AND (:creditMin IS NULL OR c.value >= :creditMin) AND (:creditMax IS NULL OR c.value <= :creditMax)))`;

/** The filter's credit parameters (method and hash bind even without a range: every page statement names them). */
export function creditParams(
  credit: EpisodeCreditQuery | null | undefined,
  range: AgentCreditFilter | null | undefined,
): Record<string, BindValue> {
  // Without stored credit a range keeps no episode: an agent name no run has.
  const agent = range ? (credit ? range.agent : '\u0000') : null;
  return {
    method: credit?.method ?? null,
    hash: credit?.paramsHash ?? null,
    creditAgent: agent,
    creditMin: range?.min ?? null,
    creditMax: range?.max ?? null,
  };
}

/**
 * The credited part of a page sorted by :sortAgent's credit: the agent's values in
 * credit_agent_sort order (ties by episode id), each joined to its episode for the filter.
 */
export function creditSortedSql(filter: string, columns: readonly string[], descending: boolean): string {
  const dir = descending ? 'DESC' : 'ASC';
  return `
    SELECT ${columns.map((c) => `e.${c}`).join(', ')}, c.value AS sort_value
    FROM credit_value c INDEXED BY credit_agent_sort CROSS JOIN episode e
    WHERE c.set_id = ${creditSetId()} AND c.agent_id = ${agentIdOf(':sortAgent')}
      AND c.message_seq IS NULL AND c.value IS NOT NULL AND e.episode_id = c.episode_id AND ${filter}
    ORDER BY c.value ${dir}, c.episode_id ${dir} LIMIT :limit OFFSET :offset`;
}

/** How many episodes the credited part holds (where the uncredited rest starts). */
export function creditSortedCountSql(filter: string): string {
  return `
    SELECT count(*) AS n FROM credit_value c INDEXED BY credit_agent_sort CROSS JOIN episode e
    WHERE c.set_id = ${creditSetId()} AND c.agent_id = ${agentIdOf(':sortAgent')}
      AND c.message_seq IS NULL AND c.value IS NOT NULL AND e.episode_id = c.episode_id AND ${filter}`;
}

/**
 * The count of a page with a credit range: the range read from credit_agent_sort (bounds as index
 * bounds, hence coalesce instead of "IS NULL OR"), each row joined to its episode for the rest of
 * the filter (`filter` without {@link creditRangeCondition}). About 2.5× faster than the filter's
 * EXISTS per episode of the run.
 */
export function creditRangeCountSql(filter: string): string {
  return `
    SELECT count(*) AS n FROM credit_value c INDEXED BY credit_agent_sort CROSS JOIN episode e
    WHERE c.set_id = ${creditSetId()} AND c.agent_id = ${agentIdOf(':creditAgent')}
      AND c.message_seq IS NULL AND c.value >= coalesce(:creditMin, -1e308) AND c.value <= coalesce(:creditMax, 1e308)
      AND e.episode_id = c.episode_id AND ${filter}`;
}

/** The rest of such a page: the filter's episodes without a value for :sortAgent, by episode id (last in both directions). */
export function uncreditedSql(filter: string, columns: readonly string[]): string {
  return `
    SELECT ${columns.map((c) => `e.${c}`).join(', ')} FROM episode e
    WHERE ${filter} AND NOT EXISTS (SELECT 1 FROM credit c WHERE c.method = :method AND c.params_hash = :hash
      AND c.episode_id = e.episode_id AND c.agent_id = ${agentIdOf(':sortAgent')} AND c.message_seq IS NULL AND c.value IS NOT NULL)
    ORDER BY e.episode_id LIMIT :limit OFFSET :offset`;
}

/** The agent-level credit of the episodes in the JSON array :ids, one seek each in credit_agent_value. */
export const pageCreditSql = `
  SELECT c.episode_id AS episodeId, c.agent_id AS agentId, c.value FROM json_each(:ids) j CROSS JOIN credit c
  WHERE c.method = :method AND c.params_hash = :hash AND c.episode_id = j.value AND c.message_seq IS NULL`;
