import { defaultSplit, type SplitChoice } from '../core/split';
import type { BindValue, Db, Statement } from './database';
import { creditSetId } from './creditSets';
import { inSplit, kindInSplit, onlySteps } from './dashboardSplit';
import { splitParam } from './splitFilter';
import type { CreditAggregates } from './viewAggregates';

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

const creditAggregateSqlOf = (only: boolean): string => `
  SELECT train_step AS step, agent_id AS agentId, sum(total) / sum(n) AS mean, sum(spoke) AS spoke, sum(idle) AS idle
  FROM credit_step_agent e WHERE run_id = :run AND method = :method AND params_hash = :hash AND epsilon = :epsilon
    AND ${kindInSplit} ${onlySteps('e', only)}
  GROUP BY train_step, agent_id HAVING sum(n) > 0 ORDER BY train_step, agent_id`;
const sharedAggregateSqlOf = (only: boolean): string => `
  SELECT train_step AS step, agent_id AS agentId, sum(total) / sum(n) AS mean, sum(spoke) AS spoke, sum(idle) AS idle
  FROM shared_step_agent e WHERE run_id = :run AND epsilon = :epsilon AND ${kindInSplit} ${onlySteps('e', only)}
  GROUP BY train_step, agent_id HAVING sum(n) > 0 ORDER BY train_step, agent_id`;

// Per (step, agent): mean credit, and the idle count among episodes where the agent spoke. The
// main pass reads the run's episodes in step order (episode_step) and their agent-level values from
// the covering index credit_agent_value (migrations 0004 and 0023: the set's id found once), sorting
// only within a step. The roster is needed only for silent agents (n_messages = 0): the main pass counts every credited episode as
// spoken, and a second, small pass over the silent roster rows takes them out (for a few steps,
// over the rosters of those steps' episodes instead).
const creditByStepSqlOf = (only: boolean): string => `
  WITH parts AS (
    SELECT step, agent_id, sum(value) AS total, count(*) AS n, count(*) AS spoke, sum(abs(value) <= :epsilon) AS idle FROM (
      SELECT e.train_step AS step, c.agent_id, c.value
      FROM episode e CROSS JOIN credit_value c
      WHERE e.run_id = :run AND e.train_step IS NOT NULL ${onlySteps('e', only)} AND ${inSplit('e')}
        AND c.set_id = ${creditSetId()} AND c.episode_id = e.episode_id AND c.message_seq IS NULL AND c.value IS NOT NULL
        AND c.status IN ('exact', 'estimated')
      ORDER BY e.train_step, c.agent_id)
    GROUP BY step, agent_id
    UNION ALL
    SELECT e.train_step, ea.agent_id, 0, 0, -count(*), -sum(abs(c.value) <= :epsilon)
    FROM ${only ? 'episode e CROSS JOIN episode_agent ea' : 'episode_agent ea CROSS JOIN episode e'} CROSS JOIN credit_value c
    WHERE ea.n_messages = 0 AND e.episode_id = ea.episode_id AND e.run_id = :run AND e.train_step IS NOT NULL ${onlySteps('e', only)} AND ${inSplit('e')}
      AND c.set_id = ${creditSetId()} AND c.episode_id = ea.episode_id AND c.agent_id = ea.agent_id
      AND c.message_seq IS NULL AND c.value IS NOT NULL AND c.status IN ('exact', 'estimated')
    GROUP BY e.train_step, ea.agent_id)
  SELECT step, agent_id AS agentId, sum(total) / sum(n) AS mean, sum(spoke) AS spoke, sum(idle) AS idle
  FROM parts GROUP BY step, agent_id HAVING sum(n) > 0 ORDER BY step, agent_id`;

// The same for the "shared" signal derived from the logged team reward (every roster agent gets R).
const sharedByStepSqlOf = (only: boolean): string => `
  SELECT e.train_step AS step, ea.agent_id AS agentId, avg(e.outcome) AS mean, sum(ea.n_messages > 0) AS spoke,
    sum(ea.n_messages > 0 AND abs(e.outcome) <= :epsilon) AS idle
  FROM episode e JOIN episode_agent ea ON ea.episode_id = e.episode_id
  WHERE e.run_id = :run AND e.train_step IS NOT NULL AND e.outcome IS NOT NULL ${onlySteps('e', only)} AND ${inSplit('e')}
  GROUP BY e.train_step, ea.agent_id ORDER BY e.train_step, ea.agent_id`;

/** The series statements, exported so a test can check their query plans. */
export const stepSeriesQueries = {
  creditByStep: creditByStepSqlOf(false),
  creditByStepOnly: creditByStepSqlOf(true),
  sharedByStep: sharedByStepSqlOf(false),
  sharedByStepOnly: sharedByStepSqlOf(true),
  creditAggregate: creditAggregateSqlOf(false),
  creditAggregateOnly: creditAggregateSqlOf(true),
  sharedAggregate: sharedAggregateSqlOf(false),
  sharedAggregateOnly: sharedAggregateSqlOf(true),
} as const;

type SeriesKey = keyof typeof stepSeriesQueries;

/**
 * The Run Dashboard's step × agent series: credit of a parameter set, or the `shared` signal, per
 * (training step, agent), from the aggregates of migration 0011 when they are current, else from
 * the credit and roster rows.
 */
export class StepAgentSeries {
  private readonly statements: Readonly<Record<SeriesKey, Statement<StepAgentCredit>>>;

  constructor(
    db: Db,
    private readonly aggregates: CreditAggregates,
  ) {
    const prepare = (key: SeriesKey): Statement<StepAgentCredit> => db.prepare(stepSeriesQueries[key]);
    this.statements = {
      creditByStep: prepare('creditByStep'),
      creditByStepOnly: prepare('creditByStepOnly'),
      sharedByStep: prepare('sharedByStep'),
      sharedByStepOnly: prepare('sharedByStepOnly'),
      creditAggregate: prepare('creditAggregate'),
      creditAggregateOnly: prepare('creditAggregateOnly'),
      sharedAggregate: prepare('sharedAggregate'),
      sharedAggregateOnly: prepare('sharedAggregateOnly'),
    };
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
    return this.read(aggregated ? 'creditAggregate' : 'creditByStep', params, only);
  }

  /** The `shared` signal per (step, agent) over the episodes in `split`, derived from the logged team reward; only the steps `only` when given. */
  sharedByStep(
    runId: number,
    epsilon: number,
    split: SplitChoice = defaultSplit,
    only?: readonly number[],
  ): StepAgentCredit[] {
    const params = { run: runId, epsilon, split: splitParam(split) };
    return this.read(this.aggregates.keepsTolerance(epsilon) ? 'sharedAggregate' : 'sharedByStep', params, only);
  }

  /** Every step of a series, or only the steps `only` (its `…Only` statement). */
  private read(
    key: 'creditAggregate' | 'creditByStep' | 'sharedAggregate' | 'sharedByStep',
    params: Record<string, BindValue>,
    only: readonly number[] | undefined,
  ): StepAgentCredit[] {
    if (!only) return this.statements[key].all(params);
    return this.statements[`${key}Only`].all({ ...params, only: JSON.stringify(only) });
  }
}
