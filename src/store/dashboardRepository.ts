import { defaultSplit, type SplitChoice } from '../core/split';
import type { DashboardRun } from '../core/dashboardRows';
import type { Db, Statement } from './database';
import { newestSetsSql } from './creditSets';
import { standingParamsSql } from './standingParams';
import { CoverageReader, coverageQueries } from './dashboardCoverage';
import { kindInSplit, onlySteps } from './dashboardSplit';
import { StepAgentSeries, stepSeriesQueries } from './dashboardStepSeries';
import { EpisodePages, defaultCountAhead, defaultSortableMatches } from './episodePages';
import { splitParam } from './splitFilter';
import { sqlBoolean } from './sqlValues';
import { CreditAggregates } from './viewAggregates';

export type { StepAgentCredit } from './dashboardStepSeries';
export type { EpisodePageQuery, EpisodePageSortKey } from './episodePageSql';
export { episodePageQueries } from './episodePageSql';
export {
  defaultCountAhead,
  defaultSortableMatches,
  type EpisodePageCreditRow,
  type EpisodePageResult,
  type EpisodePageRow,
} from './episodePages';

/** A run of the index as the Run Dashboard lists it. */
export type DashboardRunRow = DashboardRun;

/** One training step: its episodes and their mean logged team reward (null when none logs one). */
export interface DashboardStep {
  readonly step: number;
  readonly episodes: number;
  readonly meanReward: number | null;
}

const runsSql = `
  SELECT r.run_id AS runId, r.name, r.mechanism,
    (SELECT coalesce(sum(t.episodes), 0) FROM step_total t WHERE t.run_id = r.run_id)
      + (SELECT count(*) FROM episode e WHERE e.run_id = r.run_id AND e.train_step IS NULL) AS episodes,
    (SELECT min(t.train_step) FROM step_total t WHERE t.run_id = r.run_id AND t.episodes > 0) AS stepMin,
    (SELECT max(t.train_step) FROM step_total t WHERE t.run_id = r.run_id AND t.episodes > 0) AS stepMax,
    (SELECT count(DISTINCT t.train_step) FROM step_total t WHERE t.run_id = r.run_id AND t.episodes > 0) AS stepCount,
    (SELECT count(*) FROM flag f WHERE f.run_id = r.run_id) AS flags,
    EXISTS (SELECT 1 FROM episode e JOIN routing ro ON ro.episode_id = e.episode_id WHERE e.run_id = r.run_id) AS routing,
    (SELECT json_group_array(name) FROM (
       SELECT a.name FROM agent a WHERE a.run_id = r.run_id AND EXISTS (SELECT 1 FROM episode_agent ea WHERE ea.agent_id = a.agent_id)
       ORDER BY a.agent_id)) AS agentsJson
  FROM run r WHERE EXISTS (SELECT 1 FROM source s WHERE s.run_id = r.run_id) ORDER BY r.root`;

/** A row of runsSql: the run's own columns, its agents as JSON text, its step span and routing flag as stored. */
type RunRow = Pick<DashboardRun, 'runId' | 'name' | 'mechanism' | 'episodes' | 'flags'> & {
  readonly stepMin: number | null;
  readonly stepMax: number | null;
  readonly stepCount: number;
  readonly routing: number;
  readonly agentsJson: string;
};

const stepsSqlOf = (only: boolean): string => `
  SELECT train_step AS step, sum(episodes) AS episodes, sum(outcome_sum) / sum(outcomes) AS meanReward
  FROM step_total e WHERE run_id = :run AND ${kindInSplit} ${onlySteps('e', only)}
  GROUP BY train_step HAVING sum(episodes) > 0 ORDER BY train_step`;

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

// The parameter set standing for a method on the run (standingParams.ts), from the set written last
// (creditSets.ts: one lookup in credit_set).
const latestParamsSql = `
  SELECT ${standingParamsSql('main', ':run', ':method', 'n.paramsHash')} AS paramsHash FROM (
    SELECT params_hash AS paramsHash FROM (${newestSetsSql()}) WHERE run_id = :run AND method = :method) n`;

/** The aggregate statements, exported so a test can check their query plans. */
export const dashboardQueries = {
  runs: runsSql,
  steps: stepsSqlOf(false),
  latestParams: latestParamsSql,
  stepsOnly: stepsSqlOf(true),
  stepsAfter: stepsAfterSql,
  creditByStep: stepSeriesQueries.creditByStep,
  sharedByStep: stepSeriesQueries.sharedByStep,
  creditByStepOnly: stepSeriesQueries.creditByStepOnly,
  sharedByStepOnly: stepSeriesQueries.sharedByStepOnly,
  creditAggregate: stepSeriesQueries.creditAggregate,
  creditAggregateOnly: stepSeriesQueries.creditAggregateOnly,
  sharedAggregate: stepSeriesQueries.sharedAggregate,
  coverageAggregate: coverageQueries.coverageAggregate,
} as const;

/**
 * Run-level aggregates for the Run Dashboard: the runs and their steps here, the step × agent
 * series (dashboardStepSeries.ts), the credit coverage (dashboardCoverage.ts) and the episode
 * table's filtered, sorted pages (episodePages.ts). Every statement is prepared once.
 */
export class DashboardRepository {
  private readonly runsStmt: Statement<RunRow>;
  private readonly agentsStmt: Statement<{ agentId: number; name: string }>;
  private readonly stepsStmt: Statement<DashboardStep>;
  private readonly stepsOnlyStmt: Statement<DashboardStep>;
  private readonly watermarkStmt: Statement<{ id: number | null }>;
  private readonly stepsAfterStmt: Statement<{ step: number }>;
  private readonly steppedEpisodesStmt: Statement<{ n: number }>;
  private readonly hasSharedStmt: Statement<{ yes: number }>;
  private readonly latestParamsStmt: Statement<{ paramsHash: string }>;
  private readonly failureStmt: Statement<{ reason: string; status: string; paramsHash: string }>;
  private readonly episodeFlagStepsStmt: Statement<{ flagId: number; step: number | null }>;
  /** Credit per (step, agent) of one parameter set over the episodes in a split (dashboardStepSeries.ts). */
  readonly creditByStep: StepAgentSeries['creditByStep'];
  /** The `shared` signal per (step, agent), derived from the logged team reward (dashboardStepSeries.ts). */
  readonly sharedByStep: StepAgentSeries['sharedByStep'];
  /** What the charts of one parameter set draw and leave out over the episodes in a split (dashboardCoverage.ts). */
  readonly coverage: CoverageReader['coverage'];
  /** One filtered, sorted page of the run's episodes and the filter's match count (episodePages.ts). */
  readonly episodePage: EpisodePages['episodePage'];

  /** `countAhead`, `sortableMatches`: see {@link defaultCountAhead}, {@link defaultSortableMatches} (a test makes them small). */
  constructor(db: Db, countAhead = defaultCountAhead, sortableMatches = defaultSortableMatches) {
    const aggregates = new CreditAggregates(db);
    const series = new StepAgentSeries(db, aggregates);
    const coverage = new CoverageReader(db, aggregates);
    const pages = new EpisodePages(db, (runId) => this.agents(runId), countAhead, sortableMatches);
    this.creditByStep = series.creditByStep.bind(series);
    this.sharedByStep = series.sharedByStep.bind(series);
    this.coverage = coverage.coverage.bind(coverage);
    this.episodePage = pages.episodePage.bind(pages);
    this.runsStmt = db.prepare(runsSql);
    this.agentsStmt = db.prepare(`
      SELECT a.agent_id AS agentId, a.name FROM agent a
      WHERE a.run_id = ? AND EXISTS (SELECT 1 FROM episode_agent ea WHERE ea.agent_id = a.agent_id) ORDER BY a.agent_id`);
    this.stepsStmt = db.prepare(dashboardQueries.steps);
    this.stepsOnlyStmt = db.prepare(dashboardQueries.stepsOnly);
    this.watermarkStmt = db.prepare(watermarkSql);
    this.stepsAfterStmt = db.prepare(stepsAfterSql);
    this.steppedEpisodesStmt = db.prepare(steppedEpisodesSql);
    this.hasSharedStmt = db.prepare(hasSharedSql);
    this.latestParamsStmt = db.prepare(latestParamsSql);
    this.failureStmt = db.prepare(`
      SELECT reason, status, params_hash AS paramsHash FROM credit_error WHERE run_id = ? AND method = ?
      ORDER BY computed_at DESC LIMIT 1`);
    this.episodeFlagStepsStmt = db.prepare(`
      SELECT f.flag_id AS flagId, e.train_step AS step FROM flag f JOIN episode e ON e.run_id = f.run_id AND e.external_id = f.scope_id
      WHERE f.run_id = ? AND f.scope_kind = 'episode'`);
  }

  /** Runs that still have a source file, by root. */
  runs(): DashboardRunRow[] {
    return this.runsStmt.all().map(({ stepMin, stepMax, stepCount, routing, agentsJson, ...run }) => ({
      ...run,
      agents: JSON.parse(agentsJson) as string[],
      steps: { min: stepMin, max: stepMax, count: stepCount },
      routingLogged: sqlBoolean(routing),
    }));
  }

  /** The run's agents (those in some roster) by agent id. */
  agents(runId: number): { agentId: number; name: string }[] {
    return this.agentsStmt.all(runId);
  }

  /**
   * The run's training steps of the episodes in `split`, ascending (episodes without a step left
   * out); only the steps `only` when given.
   */
  steps(runId: number, split: SplitChoice = defaultSplit, only?: readonly number[]): DashboardStep[] {
    const params = { run: runId, split: splitParam(split) };
    return only ? this.stepsOnlyStmt.all({ ...params, only: JSON.stringify(only) }) : this.stepsStmt.all(params);
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

  /** The parameter set that stands for `method` on the run (standingParams.ts); undefined when no credit of it is stored. */
  latestParams(runId: number, method: string): string | undefined {
    return this.latestParamsStmt.get({ run: runId, method })?.paramsHash;
  }

  /** The run's latest failed or not-identifiable episode under `method`, if any. */
  latestFailure(runId: number, method: string): { reason: string; status: string; paramsHash: string } | undefined {
    return this.failureStmt.get(runId, method);
  }

  /** The training step of the episode each episode-scope flag names, by flag id (null: the episode logs no step). */
  episodeFlagSteps(runId: number): Map<number, number | null> {
    return new Map(this.episodeFlagStepsStmt.all(runId).map((r) => [r.flagId, r.step]));
  }
}
