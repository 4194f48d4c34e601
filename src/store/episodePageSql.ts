import type { AgentCreditSortKey, EpisodeFilter, EpisodeSortKey } from '../core/dashboardRows';
import { defaultSplit, type SplitChoice } from '../core/split';
import type { BindValue } from './database';
import { inSplit, kindInSplit, unsteppedEpisodes } from './dashboardSplit';
import {
  creditParams,
  creditRangeCondition,
  creditRangeCountSql,
  creditSortedCountSql,
  creditSortedSql,
  uncreditedSql,
  type EpisodeCreditQuery,
} from './episodeCreditColumns';
import { everyKind } from './episodeFlags';
import { splitParam } from './splitFilter';

// The SQL of the Run Dashboard's episode table: its filter, its sorts, its page and count statements.

/** Columns the episode table sorts by: its own, or one agent's credit. */
export type EpisodePageSortKey = EpisodeSortKey;
export type FixedSortKey = Exclude<EpisodeSortKey, AgentCreditSortKey>;

/** Filters (absent or null = none), sort and window of an episode page. */
export interface EpisodePageQuery {
  readonly runId: number;
  /** The table's filters, and which split's episodes (the training split when absent). */
  readonly filter: EpisodeFilter & { readonly split?: SplitChoice | null };
  /** The credit of the per-agent columns, their sort and `agentCredit` filter; none when absent. */
  readonly credit?: EpisodeCreditQuery | null;
  readonly sort: { readonly key: EpisodePageSortKey; readonly descending: boolean };
  readonly offset: number;
  readonly limit: number;
}

// Flags covering an episode, from the counts of episodeFlags.ts (kind '' = every kind).
const flagsOf = (e: string): string =>
  `coalesce((SELECT n FROM episode_flag WHERE run_id = :run AND episode_id = ${e}.episode_id AND kind = '${everyKind}'), 0)`;

/**
 * Whether the page filter tests the full-text query (`set`: every match read once into the IN
 * list) or leaves it to the statement, which reads the matches itself (`none`). Probing each
 * candidate's rowid instead costs FTS5 a doclist walk per episode (55-500 µs at 1 GB, measured when
 * the index had a document per message), slower than reading every match.
 */
export type SearchTest = 'set' | 'none';
const searchTests: Readonly<Record<SearchTest, string>> = {
  set: `AND (:search IS NULL OR e.episode_id IN (SELECT rowid FROM episode_fts WHERE episode_fts MATCH :search))`,
  none: '',
};

// Every filter is skipped when its parameter is null (SQLite evaluates OR left to right and stops).
// :flag is the episode_flag kind the flag filter asks for ('' for any).
// The id-only tests (flag, search) come first: SQLite then reads an episode's row only once they pass.
const pageFilterOf = (search: SearchTest, withCredit = true): string => `
  (:flag IS NULL OR e.episode_id IN (SELECT episode_id FROM episode_flag WHERE run_id = :run AND kind = :flag))
  ${searchTests[search]}
  AND e.run_id = :run AND ${inSplit('e')}
  AND (:stepFrom IS NULL OR e.train_step >= :stepFrom) AND (:stepTo IS NULL OR e.train_step <= :stepTo)
  AND (:group IS NULL OR e.group_id = :group)
  AND (:rewardMin IS NULL OR e.outcome >= :rewardMin) AND (:rewardMax IS NULL OR e.outcome <= :rewardMax)
  AND (:agent IS NULL OR EXISTS (SELECT 1 FROM episode_agent ea WHERE ea.episode_id = e.episode_id
    AND ea.agent_id = (SELECT agent_id FROM agent WHERE run_id = :run AND name = :agent)))
  ${withCredit ? `AND ${creditRangeCondition('e')}` : ''}`;

/**
 * Sort columns per key; episode_id last makes every order total (stable across pages). Ids sort
 * numeric-aware (`r2` before `r10`) by their stored key, read in order from episode_natural.
 */
const sortColumns: Readonly<Record<FixedSortKey, readonly string[]>> = {
  step: ['train_step', 'group_id', 'sample_idx', 'episode_id'],
  reward: ['outcome', 'episode_id'],
  messages: ['n_messages', 'episode_id'],
  flags: ['flags', 'episode_id'],
  externalId: ['external_key', 'episode_id'],
};

export const pageKey = (key: FixedSortKey, descending: boolean, search: SearchTest): string =>
  `${key}:${descending ? 'desc' : 'asc'}:${search}`;
const pageColumns = ['episode_id', 'external_id', 'train_step', 'group_id', 'sample_idx', 'outcome', 'n_messages'];
const orderOf = (key: FixedSortKey, descending: boolean): string =>
  sortColumns[key].map((c) => `${c} ${descending ? 'DESC' : 'ASC'}`).join(', ');

// The page columns under the names of the table's rows (EpisodeTableRow); the inner queries and
// their orders keep the column names.
const pageRowColumns = `p.episode_id AS episodeId, p.external_id AS externalId, p.train_step AS step, p.group_id AS "group",
  p.sample_idx AS sample, p.outcome AS reward, p.n_messages AS messages`;

/** The page rows of `inner` (a query picking the page), with roster size and flags computed for them only. */
function withRowDetails(inner: string, order: string, flags: string): string {
  return `
    SELECT ${pageRowColumns},
      (SELECT count(*) FROM episode_agent ea WHERE ea.episode_id = p.episode_id) AS agents, ${flags} AS flags
    FROM (${inner}) p ORDER BY ${order}`;
}

/**
 * The page statement for one sort other than flags. Step pages read in step order through
 * episode_step (which, wider since it holds `split`, the planner would otherwise trade for
 * episode_outcome and a full sort).
 */
function pageSql(key: FixedSortKey, descending: boolean, search: SearchTest): string {
  const order = orderOf(key, descending);
  const sortKey = key === 'externalId' ? ', e.external_key' : '';
  const inner = `
    SELECT ${pageColumns.map((c) => `e.${c}`).join(', ')}${sortKey}
    FROM episode e${key === 'step' ? ' INDEXED BY episode_step' : ''} WHERE ${pageFilterOf(search)}
    ORDER BY ${order} LIMIT :limit OFFSET :offset`;
  return withRowDetails(inner, order, flagsOf('p'));
}

/**
 * The page sorted by flags is read in two parts, each in index order: the flagged episodes by
 * count (episode_flag_rank), and the others (0 flags) by id.
 */
export type FlagsPart = 'flagged' | 'unflagged';
function flagsPageSql(part: FlagsPart, descending: boolean, search: SearchTest): string {
  const order = orderOf('flags', descending);
  const columns = pageColumns.map((c) => `e.${c}`).join(', ');
  const inner =
    part === 'flagged'
      ? `SELECT ${columns}, ef.n AS flags FROM episode_flag ef INDEXED BY episode_flag_rank CROSS JOIN episode e
         WHERE ef.run_id = :run AND ef.kind = '${everyKind}' AND e.episode_id = ef.episode_id AND ${pageFilterOf(search)}
         ORDER BY ef.n ${descending ? 'DESC' : 'ASC'}, ef.episode_id ${descending ? 'DESC' : 'ASC'} LIMIT :limit OFFSET :offset`
      : `SELECT ${columns}, 0 AS flags FROM episode e NOT INDEXED WHERE ${pageFilterOf(search)}
         AND NOT EXISTS (SELECT 1 FROM episode_flag ef WHERE ef.run_id = :run AND ef.episode_id = e.episode_id AND ef.kind = '${everyKind}')
         ORDER BY e.episode_id ${descending ? 'DESC' : 'ASC'} LIMIT :limit OFFSET :offset`;
  return withRowDetails(inner, order, 'p.flags');
}

// A page sorted by one agent's credit: the episodes with a value in value order, then the rest.
const creditPageSql = (descending: boolean): string =>
  withRowDetails(
    creditSortedSql(pageFilterOf('set'), pageColumns, descending),
    ['sort_value', 'episode_id'].map((c) => `${c} ${descending ? 'DESC' : 'ASC'}`).join(', '),
    flagsOf('p'),
  );
const uncreditedPageSql = withRowDetails(uncreditedSql(pageFilterOf('set'), pageColumns), 'episode_id', flagsOf('p'));
const creditedCountSql = creditSortedCountSql(pageFilterOf('set'));
const creditRangeCount = creditRangeCountSql(pageFilterOf('set', false));

/**
 * The search's matching episodes in index (id) order: FTS5 reads its matches in rowid order (the
 * ORDER BY costs no sort) and the join keeps the order of this outer loop. No ORDER BY on the join:
 * SQLite would sort every match first (test/unit/store/searchPage.test.ts checks the plan).
 */
const searchMatches = `(SELECT rowid AS id FROM episode_fts WHERE episode_fts MATCH :search ORDER BY rowid) m
  CROSS JOIN episode e WHERE e.episode_id = m.id AND ${pageFilterOf('none')}`;

/** A page of a search too big to sort: its episodes in index order, from the first match to the page's end. */
const searchIndexOrderSql = withRowDetails(
  `SELECT ${pageColumns.map((c) => `e.${c}`).join(', ')} FROM ${searchMatches} LIMIT :limit OFFSET :offset`,
  'episode_id',
  flagsOf('p'),
);

// Counts stop after :countLimit + 1 matches (-1: never): past :countLimit the total is a lower bound.
const capped = (select: string): string =>
  `SELECT count(*) AS n FROM (${select} LIMIT CASE WHEN :countLimit < 0 THEN -1 ELSE :countLimit + 1 END)`;
/** Which rows a count walks: every episode of the run, the flagged ones (flag filter), or the search's matches. */
export type CountDriver = 'episodes' | 'flagged' | 'matches';
function countSql(driver: CountDriver, search: SearchTest): string {
  if (driver === 'flagged')
    return capped(`SELECT 1 FROM episode_flag ef CROSS JOIN episode e
      WHERE ef.run_id = :run AND ef.kind = :flag AND e.episode_id = ef.episode_id AND ${pageFilterOf(search)}`);
  if (driver === 'matches') return capped(`SELECT 1 FROM ${searchMatches}`);
  return capped(`SELECT 1 FROM episode e WHERE ${pageFilterOf(search)}`);
}

// The count of a page without filters: the run's episodes in the split, from step_total.
export const splitCountSql = `
  SELECT (SELECT coalesce(sum(episodes), 0) FROM step_total WHERE run_id = :run AND ${kindInSplit}) + ${unsteppedEpisodes} AS n`;
export const unfiltered = (f: EpisodePageQuery['filter']): boolean =>
  [f.stepFrom, f.stepTo, f.group, f.rewardMin, f.rewardMax, f.flag, f.agent, f.search, f.agentCredit].every(
    (v) => v === undefined || v === null,
  );

const searchModes: readonly SearchTest[] = ['set'];
export const countKey = (driver: CountDriver, search: SearchTest): string => `count:${driver}:${search}`;
export const flagsPartKey = (part: FlagsPart, descending: boolean, search: SearchTest): string =>
  `flags:${part}:${descending ? 'desc' : 'asc'}:${search}`;

/** Every page and count statement, by key (exported so a test can check their plans). */
export const episodePageQueries: ReadonlyMap<string, string> = new Map([
  ...searchModes.flatMap((search) => [
    ...(Object.keys(sortColumns) as FixedSortKey[])
      .filter((key) => key !== 'flags')
      .flatMap((key) => [false, true].map((d) => [pageKey(key, d, search), pageSql(key, d, search)] as const)),
    ...(['flagged', 'unflagged'] as const).flatMap((part) =>
      [false, true].map((d) => [flagsPartKey(part, d, search), flagsPageSql(part, d, search)] as const),
    ),
    [countKey('episodes', search), countSql('episodes', search)] as const,
    [countKey('flagged', search), countSql('flagged', search)] as const,
  ]),
  [countKey('matches', 'none'), countSql('matches', 'none')],
  ['search:index', searchIndexOrderSql],
  ['credit:asc', creditPageSql(false)],
  ['credit:desc', creditPageSql(true)],
  ['uncredited', uncreditedPageSql],
  ['creditedCount', creditedCountSql],
  ['creditRangeCount', creditRangeCount],
]);

/** The counts of the credit sort and filter (no :countLimit: exact). */
export const creditCountKeys = new Set(['creditedCount', 'creditRangeCount']);

/** The filter's values, which the count and every page statement take (the pages also take :limit and :offset). */
export function filterParams(query: EpisodePageQuery): Record<string, BindValue> {
  const f = query.filter;
  return {
    run: query.runId,
    stepFrom: f.stepFrom ?? null,
    stepTo: f.stepTo ?? null,
    group: f.group ?? null,
    rewardMin: f.rewardMin ?? null,
    rewardMax: f.rewardMax ?? null,
    flag: f.flag === undefined || f.flag === null ? null : f.flag === 'any' ? everyKind : f.flag,
    agent: f.agent ?? null,
    search: f.search ?? null,
    split: splitParam(f.split ?? defaultSplit),
    ...creditParams(query.credit, f.agentCredit),
  };
}
