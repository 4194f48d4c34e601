import { defaultSplit, type SplitChoice } from '../core/split';
import type { CreditCoverage } from '../core/provenance';
import type { BindValue, Db, Statement } from './database';
import { splitCondition, splitParam } from './splitFilter';
import {
  creditParams,
  creditRangeCondition,
  creditRangeCountSql,
  creditSortedCountSql,
  creditSortedSql,
  pageCreditSql,
  sortedAgent,
  uncreditedSql,
  type AgentCreditRange,
  type AgentCreditSortKey,
  type EpisodeCreditQuery,
} from './episodeCreditColumns';
import { everyKind } from './episodeFlags';
import { CreditAggregates } from './viewAggregates';
import { SearchRepository } from './searchRepository';

// Every per-step aggregate, coverage count and episode page is of the episodes in the split bound
// to :split (splitParam: the training split by default, as credit and audit).
const inSplit = (alias: string): string => splitCondition(alias, ':split');

/** A run of the index as the Run Dashboard lists it. */
export interface DashboardRunRow {
  readonly runId: number;
  readonly name: string;
  readonly mechanism: string | null;
  readonly episodes: number;
  /** Agents that appear in some episode's roster, by agent id (the declared order of first sight). */
  readonly agents: readonly string[];
  /** Smallest and largest training step and the number of distinct steps (episodes without a step left out). */
  readonly steps: { readonly min: number | null; readonly max: number | null; readonly count: number };
  readonly flags: number;
  /** Some episode of the run logs a routing decision. */
  readonly routingLogged: boolean;
}

/** One training step: its episodes and their mean logged team reward (null when none logs one). */
export interface DashboardStep {
  readonly step: number;
  readonly episodes: number;
  readonly meanReward: number | null;
}

/**
 * Credit of one agent at one step over the episodes that have a value: mean, and among the
 * episodes where the agent spoke (`n_messages > 0`), how many and how many with |credit| ≤ ε.
 */
export interface StepAgentCredit {
  readonly step: number;
  readonly agentId: number;
  readonly mean: number;
  readonly spoke: number;
  readonly idle: number;
}

/** Columns the episode table sorts by. */
/** Columns the episode table sorts by: its own, or one agent's credit. */
export type EpisodePageSortKey = FixedSortKey | AgentCreditSortKey;
type FixedSortKey = 'step' | 'reward' | 'messages' | 'flags' | 'externalId';

/** Filters (absent or null = none), sort and window of an episode page. */
export interface EpisodePageQuery {
  readonly runId: number;
  readonly filter: {
    readonly stepFrom?: number | null;
    readonly stepTo?: number | null;
    readonly group?: string | null;
    readonly rewardMin?: number | null;
    readonly rewardMax?: number | null;
    /** 'any' or a flag kind: covered by an episode-scope flag naming the episode or a step-scope flag holding its step. */
    readonly flag?: string | null;
    /** An agent name of the episode's roster. */
    readonly agent?: string | null;
    /** An FTS5 query over message text. */
    readonly search?: string | null;
    /** Which split's episodes; the training split when absent. */
    readonly split?: SplitChoice | null;
    /** A range of one agent's credit under `credit` (no episode matches without `credit`). */
    readonly agentCredit?: AgentCreditRange | null;
  };
  /** The credit of the per-agent columns, their sort and `agentCredit` filter; none when absent. */
  readonly credit?: EpisodeCreditQuery | null;
  readonly sort: { readonly key: EpisodePageSortKey; readonly descending: boolean };
  readonly offset: number;
  readonly limit: number;
}

/** One row of an episode page. */
export interface EpisodePageRow {
  readonly episode_id: number;
  readonly external_id: string;
  readonly train_step: number | null;
  readonly group_id: string | null;
  readonly sample_idx: number | null;
  readonly outcome: number | null;
  readonly n_messages: number;
  /** Roster size, and the flags covering the episode (as in {@link EpisodePageQuery.filter}'s `flag`). */
  readonly agents: number;
  readonly flags: number;
}

const runsSql = `
  SELECT r.run_id, r.name, r.mechanism,
    (SELECT coalesce(sum(t.episodes), 0) FROM step_total t WHERE t.run_id = r.run_id)
      + (SELECT count(*) FROM episode e WHERE e.run_id = r.run_id AND e.train_step IS NULL) AS episodes,
    (SELECT min(t.train_step) FROM step_total t WHERE t.run_id = r.run_id AND t.episodes > 0) AS min_step,
    (SELECT max(t.train_step) FROM step_total t WHERE t.run_id = r.run_id AND t.episodes > 0) AS max_step,
    (SELECT count(DISTINCT t.train_step) FROM step_total t WHERE t.run_id = r.run_id AND t.episodes > 0) AS step_count,
    (SELECT count(*) FROM flag f WHERE f.run_id = r.run_id) AS flags,
    EXISTS (SELECT 1 FROM episode e JOIN routing ro ON ro.episode_id = e.episode_id WHERE e.run_id = r.run_id) AS routing,
    (SELECT json_group_array(name) FROM (
       SELECT a.name FROM agent a WHERE a.run_id = r.run_id AND EXISTS (SELECT 1 FROM episode_agent ea WHERE ea.agent_id = a.agent_id)
       ORDER BY a.agent_id)) AS agents
  FROM run r WHERE EXISTS (SELECT 1 FROM source s WHERE s.run_id = r.run_id) ORDER BY r.root`;

// The per-step statements read every step, or only the steps listed in the JSON array :only (the
// steps a live-tail delta re-reads, one episode_step seek each).
const onlySteps = (e: string, only: boolean): string =>
  only ? `AND ${e}.train_step IN (SELECT value FROM json_each(:only))` : '';

// The aggregates of migration 0011, of the split kinds in :split (step_total and shared_step_agent
// are kept by triggers; credit_step_* by the credit pass, read when viewAggregates says they are current).
const kindInSplit = 'instr(:split, split_kind) > 0';
const stepsSqlOf = (only: boolean): string => `
  SELECT train_step AS step, sum(episodes) AS episodes, sum(outcome_sum) / sum(outcomes) AS mean_reward
  FROM step_total e WHERE run_id = :run AND ${kindInSplit} ${onlySteps('e', only)}
  GROUP BY train_step HAVING sum(episodes) > 0 ORDER BY train_step`;
const stepsSql = stepsSqlOf(false);
const creditAggregateSqlOf = (only: boolean): string => `
  SELECT train_step AS step, agent_id, sum(total) / sum(n) AS mean, sum(spoke) AS spoke, sum(idle) AS idle
  FROM credit_step_agent e WHERE run_id = :run AND method = :method AND params_hash = :hash AND epsilon = :epsilon
    AND ${kindInSplit} ${onlySteps('e', only)}
  GROUP BY train_step, agent_id HAVING sum(n) > 0 ORDER BY train_step, agent_id`;
const sharedAggregateSqlOf = (only: boolean): string => `
  SELECT train_step AS step, agent_id, sum(total) / sum(n) AS mean, sum(spoke) AS spoke, sum(idle) AS idle
  FROM shared_step_agent e WHERE run_id = :run AND epsilon = :epsilon AND ${kindInSplit} ${onlySteps('e', only)}
  GROUP BY train_step, agent_id HAVING sum(n) > 0 ORDER BY train_step, agent_id`;
const unsteppedEpisodes = `(SELECT count(*) FROM episode e WHERE e.run_id = :run AND e.train_step IS NULL AND ${inSplit('e')})`;
const coverageAggregateSql = `
  SELECT (SELECT coalesce(sum(episodes), 0) FROM step_total WHERE run_id = :run AND ${kindInSplit}) + ${unsteppedEpisodes} AS episodes,
    coalesce(sum(drawn), 0) AS drawn, coalesce(sum(approximate), 0) AS approximate,
    coalesce(sum(unidentified), 0) AS unidentified, coalesce(sum(failed), 0) AS failed, count(*) AS rows
  FROM credit_step_coverage WHERE run_id = :run AND method = :method AND params_hash = :hash AND ${kindInSplit}`;

// The largest episode id of the index (ids grow with every insert: one seek, and any run's episodes
// appended later have larger ones), and the steps of a run's episodes after one: a rowid range
// (`+run_id` keeps the planner off the run's whole index range).
const watermarkSql = 'SELECT max(episode_id) AS id FROM episode';
const steppedEpisodesSql = `SELECT coalesce(sum(episodes), 0) AS n FROM step_total WHERE run_id = :run AND ${kindInSplit}`;
// Whether sharedByStep has a row at any step: an episode with a step, a logged reward and a roster.
const hasSharedSql = `SELECT EXISTS (SELECT 1 FROM shared_step_agent WHERE run_id = :run AND n > 0 AND ${kindInSplit}) AS yes`;
const stepsAfterSql = `
  SELECT DISTINCT train_step AS step FROM episode
  WHERE episode_id > :after AND +run_id = :run AND train_step IS NOT NULL ORDER BY train_step`;

// The parameter set of the run's newest credit row under a method. Row ids grow with every
// insert, so each agent's largest credit_id is its newest row (an index seek per agent); the
// newest of those by computed_at is the run's.
const latestParamsSql = `
  SELECT c.params_hash FROM agent a
  JOIN credit c ON c.credit_id = (SELECT max(x.credit_id) FROM credit x WHERE x.run_id = a.run_id AND x.method = :method AND x.agent_id = a.agent_id)
  WHERE a.run_id = :run ORDER BY c.computed_at DESC, c.credit_id DESC LIMIT 1`;

// Per (step, agent): mean credit, and the idle count among episodes where the agent spoke. The
// main pass reads the run's episodes in step order (episode_step) and their agent-level values from
// the covering index credit_agent_value (migration 0004), sorting only within a step. The roster is
// needed only for silent agents (n_messages = 0): the main pass counts every credited episode as
// spoken, and a second, small pass over the silent roster rows takes them out (for a few steps,
// over the rosters of those steps' episodes instead).
const creditByStepSqlOf = (only: boolean): string => `
  WITH parts AS (
    SELECT step, agent_id, sum(value) AS total, count(*) AS n, count(*) AS spoke, sum(abs(value) <= :epsilon) AS idle FROM (
      SELECT e.train_step AS step, c.agent_id, c.value
      FROM episode e CROSS JOIN credit c
      WHERE e.run_id = :run AND e.train_step IS NOT NULL ${onlySteps('e', only)} AND ${inSplit('e')}
        AND c.method = :method AND c.params_hash = :hash AND c.episode_id = e.episode_id AND c.message_seq IS NULL AND c.value IS NOT NULL
        AND c.status IN ('exact', 'estimated')
      ORDER BY e.train_step, c.agent_id)
    GROUP BY step, agent_id
    UNION ALL
    SELECT e.train_step, ea.agent_id, 0, 0, -count(*), -sum(abs(c.value) <= :epsilon)
    FROM ${only ? 'episode e CROSS JOIN episode_agent ea' : 'episode_agent ea CROSS JOIN episode e'} CROSS JOIN credit c
    WHERE ea.n_messages = 0 AND e.episode_id = ea.episode_id AND e.run_id = :run AND e.train_step IS NOT NULL ${onlySteps('e', only)} AND ${inSplit('e')}
      AND c.method = :method AND c.params_hash = :hash AND c.episode_id = ea.episode_id AND c.agent_id = ea.agent_id
      AND c.message_seq IS NULL AND c.value IS NOT NULL AND c.status IN ('exact', 'estimated')
    GROUP BY e.train_step, ea.agent_id)
  SELECT step, agent_id, sum(total) / sum(n) AS mean, sum(spoke) AS spoke, sum(idle) AS idle
  FROM parts GROUP BY step, agent_id HAVING sum(n) > 0 ORDER BY step, agent_id`;
const creditByStepSql = creditByStepSqlOf(false);

// How much of a parameter set the charts can draw (only exact or estimated credit), and why not the rest.
const splitEpisodes = `episode_id IN (SELECT e.episode_id FROM episode e WHERE e.run_id = :run AND ${inSplit('e')})`;
const coverageSql = `
  SELECT
    (SELECT count(*) FROM episode e WHERE e.run_id = :run AND ${inSplit('e')}) AS episodes,
    (SELECT count(DISTINCT episode_id) FROM credit WHERE run_id = :run AND method = :method AND params_hash = :hash
      AND message_seq IS NULL AND status IN ('exact', 'estimated') AND ${splitEpisodes}) AS drawn,
    (SELECT count(DISTINCT episode_id) FROM credit WHERE run_id = :run AND method = :method AND params_hash = :hash
      AND message_seq IS NULL AND status = 'approximate' AND ${splitEpisodes}) AS approximate,
    (SELECT count(*) FROM credit_error WHERE run_id = :run AND method = :method AND params_hash = :hash AND status = 'not-identifiable' AND ${splitEpisodes}) AS unidentified,
    (SELECT count(*) FROM credit_error WHERE run_id = :run AND method = :method AND params_hash = :hash AND status <> 'not-identifiable' AND ${splitEpisodes}) AS failed`;
const topReasonSql = `
  SELECT reason, remedy, count(*) AS n FROM credit_error WHERE run_id = :run AND method = :method AND params_hash = :hash AND status = 'not-identifiable'
  GROUP BY reason, remedy ORDER BY n DESC LIMIT 1`;

// The same for the "shared" signal derived from the logged team reward (every roster agent gets R).
const sharedByStepSqlOf = (only: boolean): string => `
  SELECT e.train_step AS step, ea.agent_id, avg(e.outcome) AS mean, sum(ea.n_messages > 0) AS spoke,
    sum(ea.n_messages > 0 AND abs(e.outcome) <= :epsilon) AS idle
  FROM episode e JOIN episode_agent ea ON ea.episode_id = e.episode_id
  WHERE e.run_id = :run AND e.train_step IS NOT NULL AND e.outcome IS NOT NULL ${onlySteps('e', only)} AND ${inSplit('e')}
  GROUP BY e.train_step, ea.agent_id ORDER BY e.train_step, ea.agent_id`;
const sharedByStepSql = sharedByStepSqlOf(false);

// Flags covering an episode, from the counts of episodeFlags.ts (kind '' = every kind).
const flagsOf = (e: string): string =>
  `coalesce((SELECT n FROM episode_flag WHERE run_id = :run AND episode_id = ${e}.episode_id AND kind = '${everyKind}'), 0)`;

/**
 * Whether the page filter tests the full-text query (`set`: every match read once into the IN
 * list) or leaves it to the statement, which reads the matches itself (`none`). Probing each
 * candidate's rowid range (id * 2^24 + seq) instead costs FTS5 a doclist walk per episode
 * (55-500 µs at 1 GB), slower than reading every match.
 */
type SearchTest = 'set' | 'none';
const searchTests: Readonly<Record<SearchTest, string>> = {
  set: `AND (:search IS NULL OR e.episode_id IN (SELECT rowid >> 24 FROM message_fts WHERE message_fts MATCH :search))`,
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

const pageKey = (key: FixedSortKey, descending: boolean, search: SearchTest): string =>
  `${key}:${descending ? 'desc' : 'asc'}:${search}`;
const pageColumns = ['episode_id', 'external_id', 'train_step', 'group_id', 'sample_idx', 'outcome', 'n_messages'];
const orderOf = (key: FixedSortKey, descending: boolean): string =>
  sortColumns[key].map((c) => `${c} ${descending ? 'DESC' : 'ASC'}`).join(', ');

/** The page rows of `inner` (a query picking the page), with roster size and flags computed for them only. */
function withRowDetails(inner: string, order: string, flags: string): string {
  return `
    SELECT ${pageColumns.map((c) => `p.${c}`).join(', ')},
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
type FlagsPart = 'flagged' | 'unflagged';
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
const searchMatches = `(SELECT DISTINCT rowid >> 24 AS id FROM message_fts WHERE message_fts MATCH :search ORDER BY rowid) m
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
type CountDriver = 'episodes' | 'flagged' | 'matches';
function countSql(driver: CountDriver, search: SearchTest): string {
  if (driver === 'flagged')
    return capped(`SELECT 1 FROM episode_flag ef CROSS JOIN episode e
      WHERE ef.run_id = :run AND ef.kind = :flag AND e.episode_id = ef.episode_id AND ${pageFilterOf(search)}`);
  if (driver === 'matches') return capped(`SELECT 1 FROM ${searchMatches}`);
  return capped(`SELECT 1 FROM episode e WHERE ${pageFilterOf(search)}`);
}

// The count of a page without filters: the run's episodes in the split, from step_total.
const splitCountSql = `
  SELECT (SELECT coalesce(sum(episodes), 0) FROM step_total WHERE run_id = :run AND ${kindInSplit}) + ${unsteppedEpisodes} AS n`;
const unfiltered = (f: EpisodePageQuery['filter']): boolean =>
  [f.stepFrom, f.stepTo, f.group, f.rewardMin, f.rewardMax, f.flag, f.agent, f.search, f.agentCredit].every(
    (v) => v === undefined || v === null,
  );

/** Matches a filtered count reads past the page's end before it stops and calls the total a lower bound. */
export const defaultCountAhead = 10_000;
/**
 * Matching messages a search may have and still be sorted as asked: a sorted page reads every match
 * (0.1-1 µs each, by the machine's load), a bigger search is listed in index order
 * ({@link EpisodePageResult.inIndexOrder}); telling the two apart reads up to this many.
 */
export const defaultSortableMatches = 100_000;
const searchModes: readonly SearchTest[] = ['set'];
const countKey = (driver: CountDriver, search: SearchTest): string => `count:${driver}:${search}`;
const flagsPartKey = (part: FlagsPart, descending: boolean, search: SearchTest): string =>
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
const creditCountKeys = new Set(['creditedCount', 'creditRangeCount']);

/** The filter's values, which the count and every page statement take (the pages also take :limit and :offset). */
function filterParams(query: EpisodePageQuery): Record<string, BindValue> {
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

/** The aggregate statements, exported so a test can check their query plans. */
export const dashboardQueries = {
  runs: runsSql,
  steps: stepsSql,
  latestParams: latestParamsSql,
  creditByStep: creditByStepSql,
  sharedByStep: sharedByStepSql,
  stepsOnly: stepsSqlOf(true),
  creditByStepOnly: creditByStepSqlOf(true),
  sharedByStepOnly: sharedByStepSqlOf(true),
  stepsAfter: stepsAfterSql,
  creditAggregate: creditAggregateSqlOf(false),
  creditAggregateOnly: creditAggregateSqlOf(true),
  sharedAggregate: sharedAggregateSqlOf(false),
  coverageAggregate: coverageAggregateSql,
} as const;

/**
 * Run-level aggregates for the Run Dashboard, computed in SQL per (training step, agent), and the
 * episode table's filtered, sorted pages. Every statement is prepared once.
 */
export class DashboardRepository {
  private readonly runsStmt: Statement<{
    run_id: number;
    name: string;
    mechanism: string | null;
    episodes: number;
    min_step: number | null;
    max_step: number | null;
    step_count: number;
    flags: number;
    routing: number;
    agents: string;
  }>;
  private readonly agentsStmt: Statement<{ agent_id: number; name: string }>;
  private readonly stepsStmt: Statement<{ step: number; episodes: number; mean_reward: number | null }>;
  private readonly stepsOnlyStmt: Statement<{ step: number; episodes: number; mean_reward: number | null }>;
  private readonly watermarkStmt: Statement<{ id: number | null }>;
  private readonly stepsAfterStmt: Statement<{ step: number }>;
  private readonly steppedEpisodesStmt: Statement<{ n: number }>;
  private readonly hasSharedStmt: Statement<{ yes: number }>;
  private readonly creditByStepOnlyStmt: Statement<StepAgentRow>;
  private readonly sharedByStepOnlyStmt: Statement<StepAgentRow>;
  private readonly latestParamsStmt: Statement<{ params_hash: string }>;
  private readonly creditByStepStmt: Statement<StepAgentRow>;
  private readonly sharedByStepStmt: Statement<StepAgentRow>;
  private readonly failureStmt: Statement<{ reason: string; status: string; params_hash: string }>;
  private readonly coverageStmt: Statement<CoverageRow>;
  private readonly topReasonStmt: Statement<{ reason: string; remedy: string | null }>;
  private readonly episodeFlagStepsStmt: Statement<{ flag_id: number; train_step: number | null }>;
  private readonly pageStmts = new Map<string, Statement<EpisodePageRow>>();
  private readonly countStmts = new Map<string, Statement<{ n: number }>>();
  private readonly pageCreditStmt: Statement<{ episode_id: number; agent_id: number; value: number | null }>;
  private readonly splitCountStmt: Statement<{ n: number }>;
  private readonly aggregates: CreditAggregates;
  private readonly creditAggregateStmt: Statement<StepAgentRow>;
  private readonly creditAggregateOnlyStmt: Statement<StepAgentRow>;
  private readonly sharedAggregateStmt: Statement<StepAgentRow>;
  private readonly sharedAggregateOnlyStmt: Statement<StepAgentRow>;
  private readonly coverageAggregateStmt: Statement<CoverageRow & { rows: number }>;

  private readonly searchIndex: SearchRepository;

  /** `countAhead`, `sortableMatches`: see {@link defaultCountAhead}, {@link defaultSortableMatches} (a test makes them small). */
  constructor(
    db: Db,
    private readonly countAhead = defaultCountAhead,
    private readonly sortableMatches = defaultSortableMatches,
  ) {
    this.aggregates = new CreditAggregates(db);
    this.searchIndex = new SearchRepository(db);
    this.creditAggregateStmt = db.prepare(creditAggregateSqlOf(false));
    this.creditAggregateOnlyStmt = db.prepare(creditAggregateSqlOf(true));
    this.sharedAggregateStmt = db.prepare(sharedAggregateSqlOf(false));
    this.sharedAggregateOnlyStmt = db.prepare(sharedAggregateSqlOf(true));
    this.coverageAggregateStmt = db.prepare(coverageAggregateSql);
    this.runsStmt = db.prepare(runsSql);
    this.agentsStmt = db.prepare(`
      SELECT a.agent_id, a.name FROM agent a
      WHERE a.run_id = ? AND EXISTS (SELECT 1 FROM episode_agent ea WHERE ea.agent_id = a.agent_id) ORDER BY a.agent_id`);
    this.stepsStmt = db.prepare(stepsSql);
    this.stepsOnlyStmt = db.prepare(dashboardQueries.stepsOnly);
    this.watermarkStmt = db.prepare(watermarkSql);
    this.stepsAfterStmt = db.prepare(stepsAfterSql);
    this.steppedEpisodesStmt = db.prepare(steppedEpisodesSql);
    this.hasSharedStmt = db.prepare(hasSharedSql);
    this.creditByStepOnlyStmt = db.prepare(dashboardQueries.creditByStepOnly);
    this.sharedByStepOnlyStmt = db.prepare(dashboardQueries.sharedByStepOnly);
    this.latestParamsStmt = db.prepare(latestParamsSql);
    this.creditByStepStmt = db.prepare(creditByStepSql);
    this.sharedByStepStmt = db.prepare(sharedByStepSql);
    this.failureStmt = db.prepare(
      'SELECT reason, status, params_hash FROM credit_error WHERE run_id = ? AND method = ? ORDER BY computed_at DESC LIMIT 1',
    );
    this.coverageStmt = db.prepare(coverageSql);
    this.topReasonStmt = db.prepare(topReasonSql);
    this.episodeFlagStepsStmt = db.prepare(`
      SELECT f.flag_id, e.train_step FROM flag f JOIN episode e ON e.run_id = f.run_id AND e.external_id = f.scope_id
      WHERE f.run_id = ? AND f.scope_kind = 'episode'`);
    for (const [key, sql] of episodePageQueries)
      if (key.startsWith('count:') || creditCountKeys.has(key)) this.countStmts.set(key, db.prepare(sql));
      else this.pageStmts.set(key, db.prepare(sql));
    this.pageCreditStmt = db.prepare(pageCreditSql);
    this.splitCountStmt = db.prepare(splitCountSql);
  }

  /** Runs that still have a source file, by root. */
  runs(): DashboardRunRow[] {
    return this.runsStmt.all().map((r) => ({
      runId: r.run_id,
      name: r.name,
      mechanism: r.mechanism,
      episodes: r.episodes,
      agents: JSON.parse(r.agents) as string[],
      steps: { min: r.min_step, max: r.max_step, count: r.step_count },
      flags: r.flags,
      routingLogged: r.routing === 1,
    }));
  }

  /** The run's agents (those in some roster) by agent id. */
  agents(runId: number): { agentId: number; name: string }[] {
    return this.agentsStmt.all(runId).map((r) => ({ agentId: r.agent_id, name: r.name }));
  }

  /**
   * The run's training steps of the episodes in `split`, ascending (episodes without a step left
   * out); only the steps `only` when given.
   */
  steps(runId: number, split: SplitChoice = defaultSplit, only?: readonly number[]): DashboardStep[] {
    const params = { run: runId, split: splitParam(split) };
    return (only ? this.stepsOnlyStmt.all({ ...params, only: JSON.stringify(only) }) : this.stepsStmt.all(params)).map(
      (r) => ({ step: r.step, episodes: r.episodes, meanReward: r.mean_reward }),
    );
  }

  /** The index's largest episode id (0 when empty): episodes appended later have larger ones. */
  watermark(): number {
    return this.watermarkStmt.get()?.id ?? 0;
  }

  /** Episodes of the run in `split` that log a step (what the overview's steps add up to). */
  steppedEpisodes(runId: number, split: SplitChoice = defaultSplit): number {
    return this.steppedEpisodesStmt.get({ run: runId, split: splitParam(split) })?.n ?? 0;
  }

  /** True when {@link sharedByStep} has a row at some step. */
  hasShared(runId: number, split: SplitChoice = defaultSplit): boolean {
    return this.hasSharedStmt.get({ run: runId, split: splitParam(split) })?.yes === 1;
  }

  /** The steps of the run's episodes with an id above `after`, ascending. */
  stepsAfter(runId: number, after: number): number[] {
    return this.stepsAfterStmt.all({ run: runId, after }).map((r) => r.step);
  }

  /** The parameter set of the newest credit of the run under `method`; undefined when none is stored. */
  latestParams(runId: number, method: string): string | undefined {
    return this.latestParamsStmt.get({ run: runId, method })?.params_hash;
  }

  /** Credit per (step, agent) of one parameter set over the episodes in `split`, by step then agent id; only the steps `only` when given. */
  creditByStep(
    runId: number,
    method: string,
    paramsHash: string,
    epsilon: number,
    split: SplitChoice = defaultSplit,
    only?: readonly number[],
  ): StepAgentCredit[] {
    const params = { run: runId, method, hash: paramsHash, epsilon, split: splitParam(split) };
    const aggregated = this.aggregates.fresh(runId) && this.aggregates.keepsTolerance(epsilon);
    const [all, some] = aggregated
      ? [this.creditAggregateStmt, this.creditAggregateOnlyStmt]
      : [this.creditByStepStmt, this.creditByStepOnlyStmt];
    return (only ? some.all({ ...params, only: JSON.stringify(only) }) : all.all(params)).map(toStepAgent);
  }

  /** The `shared` signal per (step, agent) over the episodes in `split`, derived from the logged team reward; only the steps `only` when given. */
  sharedByStep(
    runId: number,
    epsilon: number,
    split: SplitChoice = defaultSplit,
    only?: readonly number[],
  ): StepAgentCredit[] {
    const params = { run: runId, epsilon, split: splitParam(split) };
    const [all, some] = this.aggregates.keepsTolerance(epsilon)
      ? [this.sharedAggregateStmt, this.sharedAggregateOnlyStmt]
      : [this.sharedByStepStmt, this.sharedByStepOnlyStmt];
    return (only ? some.all({ ...params, only: JSON.stringify(only) }) : all.all(params)).map(toStepAgent);
  }

  /** The run's latest failed or not-identifiable episode under `method`, if any. */
  latestFailure(runId: number, method: string): { reason: string; status: string; paramsHash: string } | undefined {
    const row = this.failureStmt.get(runId, method);
    return row ? { reason: row.reason, status: row.status, paramsHash: row.params_hash } : undefined;
  }

  /** What the charts of one parameter set draw and leave out over the episodes in `split` (docs/credit-provenance.md). */
  coverage(runId: number, method: string, paramsHash: string, split: SplitChoice = defaultSplit): CreditCoverage {
    const params = { run: runId, method, hash: paramsHash };
    const aggregated = this.aggregates.fresh(runId)
      ? this.coverageAggregateStmt.get({ ...params, split: splitParam(split) })
      : undefined;
    // A parameter set without aggregate rows (one whose every episode failed) is counted from its rows.
    const c =
      aggregated && aggregated.rows > 0 ? aggregated : this.coverageStmt.get({ ...params, split: splitParam(split) });
    const top = this.topReasonStmt.get(params);
    return {
      episodes: c?.episodes ?? 0,
      drawn: c?.drawn ?? 0,
      approximate: c?.approximate ?? 0,
      notIdentifiable: c?.unidentified ?? 0,
      failed: c?.failed ?? 0,
      reason: top?.reason ?? null,
      remedy: top?.remedy ?? null,
    };
  }

  /** The training step of the episode each episode-scope flag names, by flag id (null: the episode logs no step). */
  episodeFlagSteps(runId: number): Map<number, number | null> {
    return new Map(this.episodeFlagStepsStmt.all(runId).map((r) => [r.flag_id, r.train_step]));
  }

  /**
   * One page of the run's episodes and the number of episodes matching the filter: exact without
   * filters, else counted up to `countAhead` matches past the page's end (`totalIsLowerBound`
   * then says there are more). A search matching more than `sortableMatches` messages is listed
   * in index order (`inIndexOrder`), read from the full-text index only as far as the page goes.
   * Throws the SQLite error when the full-text query is malformed.
   */
  episodePage(query: EpisodePageQuery): EpisodePageResult {
    const params = filterParams(query);
    const search: SearchTest = 'set';
    const inIndexOrder =
      typeof params['search'] === 'string' && !this.searchIndex.matchesAtMost(params['search'], this.sortableMatches);
    const [total, totalIsLowerBound] = this.pageTotal(query, params, search, inIndexOrder);
    const agents = this.agents(query.runId);
    const names = agents.map((a) => a.name);
    if (total <= query.offset) return { total, totalIsLowerBound, inIndexOrder, agents: names, rows: [] };
    const window = { offset: query.offset, limit: query.limit };
    const rows = inIndexOrder ? this.rows('search:index', params, window) : this.sortedRows(query, params, window);
    return { total, totalIsLowerBound, inIndexOrder, agents: names, rows: this.withCredit(query, rows, agents) };
  }

  /** The page's rows in the order the query asks for. */
  private sortedRows(query: EpisodePageQuery, params: Record<string, BindValue>, window: PageWindow): EpisodePageRow[] {
    const search: SearchTest = 'set';
    const sortAgent = sortedAgent(query.sort.key);
    if (sortAgent !== undefined) return this.creditPage({ ...params, sortAgent }, query.sort.descending, window);
    if (query.sort.key === 'flags') return this.flagsPage(params, query.sort.descending, search, window);
    return this.rows(pageKey(query.sort.key as FixedSortKey, query.sort.descending, search), params, window);
  }

  /**
   * Episodes matching the filter: from step_total without one, exact from the credit range with one,
   * else capped (from the search's matches in index order when it is too big to sort).
   */
  private pageTotal(
    query: EpisodePageQuery,
    params: Record<string, BindValue>,
    search: SearchTest,
    inIndexOrder: boolean,
  ): [number, boolean] {
    if (unfiltered(query.filter))
      return [this.splitCountStmt.get({ run: query.runId, split: params['split'] ?? null })?.n ?? 0, false];
    if (query.filter.agentCredit && query.credit)
      return [this.countStmts.get('creditRangeCount')?.get(params)?.n ?? 0, false];
    return this.cappedTotal(params, search, query.offset + query.limit + this.countAhead, inIndexOrder);
  }

  /** A page sorted by an agent's credit: the episodes with a value, then (once they run out) those without. */
  private creditPage(params: Record<string, BindValue>, descending: boolean, window: PageWindow): EpisodePageRow[] {
    const credited = this.rows(descending ? 'credit:desc' : 'credit:asc', params, window);
    if (credited.length === window.limit) return credited;
    // The credited part ends on this page (or before it): where it ends is where the rest starts.
    const creditedTotal =
      credited.length > 0
        ? window.offset + credited.length
        : (this.countStmts.get('creditedCount')?.get(params)?.n ?? 0);
    const rest = this.rows('uncredited', params, {
      limit: window.limit - credited.length,
      offset: Math.max(0, window.offset - creditedTotal),
    });
    return [...credited, ...rest];
  }

  /** `rows` with their agents' agent-level credit (every value null without `query.credit`). */
  private withCredit(
    query: EpisodePageQuery,
    rows: readonly EpisodePageRow[],
    agents: readonly { agentId: number }[],
  ): EpisodePageCreditRow[] {
    const credit = query.credit;
    const values = new Map<string, number | null>();
    if (credit && rows.length > 0) {
      const ids = JSON.stringify(rows.map((r) => r.episode_id));
      for (const v of this.pageCreditStmt.all({ ids, method: credit.method, hash: credit.paramsHash }))
        values.set(`${String(v.episode_id)}:${String(v.agent_id)}`, v.value);
    }
    return rows.map((r) => ({
      ...r,
      credit: agents.map((a) => values.get(`${String(r.episode_id)}:${String(a.agentId)}`) ?? null),
    }));
  }

  /**
   * The filtered count up to `limit`, walking the smallest driver the filter allows (the search's
   * matches, in index order, for a search too big to sort); true when there are more.
   */
  private cappedTotal(
    params: Record<string, BindValue>,
    search: SearchTest,
    limit: number,
    inIndexOrder: boolean,
  ): [number, boolean] {
    const key = inIndexOrder
      ? countKey('matches', 'none')
      : params['flag'] !== null
        ? countKey('flagged', search)
        : params['search'] !== null
          ? countKey('matches', 'none')
          : countKey('episodes', search);
    const n = this.count(key, params, limit);
    return n > limit ? [limit, true] : [n, false];
  }

  private count(key: string, params: Record<string, BindValue>, limit: number): number {
    const stmt = this.countStmts.get(key);
    if (!stmt) throw new Error(`unknown count ${key}`);
    return stmt.get({ ...params, countLimit: limit })?.n ?? 0;
  }

  private rows(key: string, params: Record<string, BindValue>, window: PageWindow): EpisodePageRow[] {
    const stmt = this.pageStmts.get(key);
    if (!stmt) throw new Error(`unknown page ${key}`);
    return stmt.all({ ...params, ...window });
  }

  /**
   * The page sorted by flags: the part read first (flagged when descending), then, once it runs
   * out, the other from the offset left over (the first part's exact count, when the page starts
   * past it). With the flag filter every match is flagged.
   */
  private flagsPage(
    params: Record<string, BindValue>,
    descending: boolean,
    search: SearchTest,
    window: PageWindow,
  ): EpisodePageRow[] {
    const flagFiltered = params['flag'] !== null;
    const [first, second]: [FlagsPart, FlagsPart] =
      descending || flagFiltered ? ['flagged', 'unflagged'] : ['unflagged', 'flagged'];
    const rows = this.rows(flagsPartKey(first, descending, search), params, window);
    if (rows.length === window.limit || (flagFiltered && first === 'flagged')) return rows;
    const firstCount = rows.length > 0 ? window.offset + rows.length : this.partCount(first, params, search);
    const rest = this.rows(flagsPartKey(second, descending, search), params, {
      offset: Math.max(0, window.offset - firstCount),
      limit: window.limit - rows.length,
    });
    return [...rows, ...rest];
  }

  /** The exact number of matches in one part of the flags sort. */
  private partCount(part: FlagsPart, params: Record<string, BindValue>, search: SearchTest): number {
    const flagged = this.count(countKey('flagged', search), { ...params, flag: everyKind }, -1);
    return part === 'flagged' ? flagged : this.count(countKey('episodes', search), params, -1) - flagged;
  }
}

interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}

/** An episode page and the filter's match count (a lower bound when `totalIsLowerBound`). */
export interface EpisodePageResult {
  readonly total: number;
  readonly totalIsLowerBound: boolean;
  /** True when a search matched too many messages to sort: the rows come in index (episode id) order. */
  readonly inIndexOrder: boolean;
  /** The run's agents, in the order of each row's `credit`. */
  readonly agents: string[];
  readonly rows: EpisodePageCreditRow[];
}

/** A page row with its agents' credit, in the order of {@link EpisodePageResult.agents} (null: no value). */
export type EpisodePageCreditRow = EpisodePageRow & { readonly credit: readonly (number | null)[] };

interface CoverageRow {
  episodes: number;
  drawn: number;
  approximate: number;
  unidentified: number;
  failed: number;
}

interface StepAgentRow {
  step: number;
  agent_id: number;
  mean: number;
  spoke: number;
  idle: number;
}

function toStepAgent(r: StepAgentRow): StepAgentCredit {
  return { step: r.step, agentId: r.agent_id, mean: r.mean, spoke: r.spoke, idle: r.idle };
}
