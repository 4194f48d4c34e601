import type { BindValue, Db, Statement } from './database';
import { creditSetId } from './creditSets';
import { MultiInsert } from './multiInsert';
import { splitKindOf, splitParam } from './splitFilter';
import type { SplitChoice } from '../core/split';

// Sign disagreement per (run, method, parameter set, split kind, step, agent), migration 0020
// (credit-methods.md §3.18): written by the credit pass (engine/credit/signalPass.ts), read set-based
// by the Run Dashboard and the audit without touching an episode row.

/** One roster row of a stepped episode with the agent's credit under one parameter set (null: none). */
export interface SignalSampleRow {
  readonly step: number;
  readonly groupId: string | null;
  readonly episodeId: number;
  readonly splitKind: string;
  readonly outcome: number | null;
  readonly agentId: number;
  /** The stored GRPO advantage of the agent's credit; null without usable credit. */
  readonly advantage: number | null;
}

/** The additive counts of a cell or of a window of cells (credit/signals/signDisagreement.ts SignCounts). */
export interface SignalCounts {
  readonly n: number;
  readonly opposite: number;
  readonly zero: number;
  readonly sharedOnly: number;
}

/**
 * One (sample, agent) of a run as `credit-lens advantages` exports it: the trainer's sample identity,
 * the agent, the reward, and the agent's credit under one parameter set (nulls without one).
 */
export interface AdvantageSampleRow {
  readonly step: number | null;
  readonly groupId: string | null;
  readonly episodeId: number;
  readonly externalId: string;
  /** verl's `uid` when the dump logs one (a `reward_extra_infos_dict` key, kept in metadata). */
  readonly uid: string | number | null;
  readonly sampleIdx: number | null;
  readonly source: string;
  readonly format: string;
  readonly line: number;
  readonly agent: string;
  readonly outcome: number | null;
  readonly value: number | null;
  readonly status: string | null;
  readonly creditSource: string | null;
  readonly advantage: number | null;
  /** `not-identifiable` or `failed` when the pass recorded the episode as such. */
  readonly problem: string | null;
}

/** A stored cell: counts, ρ (null when undefined) and what was left out. */
export interface SignalCell {
  readonly splitKind: string;
  readonly step: number;
  readonly agentId: number;
  readonly n: number;
  readonly opposite: number;
  readonly zero: number;
  readonly sharedOnly: number;
  readonly rho: number | null;
  readonly noGroup: number;
  readonly noCredit: number;
  readonly noReward: number;
}

/** A (step, agent) cell as the dashboard reads it, over the split kinds of its split. */
export type SignalStepAgent = Omit<SignalCell, 'splitKind'>;

/** Which steps a pass wrote: all of the run's, or those listed. */
export type SignalScope = { readonly kind: 'all' } | { readonly kind: 'steps'; readonly steps: readonly number[] };

const stepsListed = (listed: boolean): string =>
  listed ? 'AND e.train_step IN (SELECT value FROM json_each(:steps))' : '';

// Roster rows in (step, group, episode) order: one step's samples at a time. Only exact or estimated
// agent-level credit with an advantage is a sample (approximate credit is never drawn, §3.18).
const samplesSql = (listed: boolean): string => `
  SELECT e.train_step AS step, e.group_id AS groupId, e.episode_id AS episodeId, ${splitKindOf('e')} AS splitKind,
    e.outcome, ea.agent_id AS agentId,
    (SELECT c.advantage FROM credit c WHERE c.episode_id = e.episode_id AND c.method = :method AND c.params_hash = :hash
       AND c.agent_id = ea.agent_id AND c.message_seq IS NULL AND c.status IN ('exact', 'estimated') AND c.value IS NOT NULL) AS advantage
  FROM episode e INDEXED BY episode_step JOIN episode_agent ea ON ea.episode_id = e.episode_id
  WHERE e.run_id = :run AND e.train_step IS NOT NULL ${stepsListed(listed)}
  ORDER BY e.train_step, e.group_id, e.episode_id, ea.agent_id`;

// Every roster row of the run's episodes in a split, in (step, group, episode, agent) order, with the
// credit of one parameter set (method '' matches none: the shared reward's export), one seek of
// credit_key per row (the table, not the view: a view on the right of a LEFT JOIN is materialized whole).
const advantageRowsSql = `
  SELECT e.train_step AS step, e.group_id AS groupId, e.episode_id AS episodeId, e.external_id AS externalId,
    coalesce(json_extract(e.metadata_json, '$.fields.uid'), json_extract(e.metadata_json, '$.metrics.uid'),
      json_extract(e.metadata_json, '$.uid')) AS uid,
    e.sample_idx AS sampleIdx, src.uri AS source, src.format, e.line, a.name AS agent, e.outcome,
    c.value, c.status, c.source AS creditSource, c.advantage, x.status AS problem
  FROM episode e JOIN episode_agent ea ON ea.episode_id = e.episode_id JOIN agent a ON a.agent_id = ea.agent_id
  JOIN source src ON src.source_id = e.source_id
  LEFT JOIN credit_value c ON c.episode_id = e.episode_id AND c.agent_id = ea.agent_id AND c.set_id = ${creditSetId()}
    AND c.message_seq IS NULL
  LEFT JOIN credit_error x ON x.episode_id = e.episode_id AND x.method = :method AND x.params_hash = :hash
  WHERE e.run_id = :run AND ${splitKindOf('e')} IN (SELECT value FROM json_each(:kinds))
  ORDER BY e.train_step, e.group_id, e.episode_id, ea.agent_id`;

const clearSql = (listed: boolean): string =>
  `DELETE FROM signal_step_agent WHERE run_id = :run AND method = :method AND params_hash = :hash ${
    listed ? 'AND train_step IN (SELECT value FROM json_each(:steps))' : ''
  }`;

// Split kinds summed; ρ is not additive, so it is kept only where one split kind holds the cell.
const byStepSql = `
  SELECT train_step AS step, agent_id AS agentId, sum(n) AS n, sum(opposite) AS opposite, sum(zero) AS zero,
    sum(shared_only) AS sharedOnly, CASE WHEN count(*) = 1 THEN max(rho) END AS rho, sum(no_group) AS noGroup, sum(no_credit) AS noCredit,
    sum(no_reward) AS noReward
  FROM signal_step_agent
  WHERE run_id = :run AND method = :method AND params_hash = :hash AND instr(:split, split_kind) > 0
  GROUP BY train_step, agent_id ORDER BY train_step, agent_id`;

const windowSql = `
  SELECT coalesce(sum(n), 0) AS n, coalesce(sum(opposite), 0) AS opposite, coalesce(sum(zero), 0) AS zero,
    coalesce(sum(shared_only), 0) AS sharedOnly, count(*) AS cells
  FROM signal_step_agent
  WHERE run_id = :run AND method = :method AND params_hash = :hash
    AND agent_id = (SELECT a.agent_id FROM agent a WHERE a.run_id = :run AND a.name = :agent)
    AND train_step BETWEEN :from AND :to AND instr(:split, split_kind) > 0`;

/** The statements the Run Dashboard's overview runs, exported so a test can check their query plans. */
export const signalQueries = { byStep: byStepSql, window: windowSql } as const;

const cellColumns = [
  'split_kind',
  'train_step',
  'agent_id',
  'n',
  'opposite',
  'zero',
  'shared_only',
  'rho',
  'no_group',
  'no_credit',
  'no_reward',
] as const;

/** The sign-disagreement table: the credit pass's samples and writes, the views' reads. */
export class SignalRepository {
  private readonly samplesStmts: ReadonlyMap<boolean, Statement<SignalSampleRow>>;
  private readonly clearStmts: ReadonlyMap<boolean, Statement>;
  private readonly byStepStmt: Statement<SignalStepAgent>;
  private readonly windowStmt: Statement<SignalCounts & { cells: number }>;
  private readonly insert: MultiInsert;
  private readonly hasCellsStmt: Statement<{ yes: number }>;
  private readonly advantageRowsStmt: Statement<AdvantageSampleRow>;
  private readonly paramsAdvantageStmt: Statement<{ advantage: string | null }>;

  constructor(private readonly db: Db) {
    this.samplesStmts = new Map([false, true].map((l) => [l, db.prepare<SignalSampleRow>(samplesSql(l))]));
    this.clearStmts = new Map([false, true].map((l) => [l, db.prepare(clearSql(l))]));
    this.byStepStmt = db.prepare(byStepSql);
    this.windowStmt = db.prepare(windowSql);
    this.hasCellsStmt = db.prepare(
      'SELECT EXISTS (SELECT 1 FROM signal_step_agent WHERE run_id = ? AND method = ? AND params_hash = ?) AS yes',
    );
    this.advantageRowsStmt = db.prepare(advantageRowsSql);
    this.paramsAdvantageStmt = db.prepare(
      "SELECT json_extract(params_json, '$.advantage') AS advantage FROM credit_params WHERE run_id = ? AND method = ? AND params_hash = ?",
    );
    this.insert = new MultiInsert(db, 'signal_step_agent', cellColumns, 64, ['run_id', 'method', 'params_hash']);
  }

  /** True when some cell of the parameter set is stored for the run. */
  hasCells(runId: number, method: string, hash: string): boolean {
    return this.hasCellsStmt.get(runId, method, hash)?.yes === 1;
  }

  /**
   * Every (sample, agent) of the run's episodes in `split`, in (step, group, episode, agent) order,
   * with the agent's credit under `credit` (none: every credit column null). Streamed.
   */
  advantageRows(
    runId: number,
    split: SplitChoice,
    credit?: { method: string; hash: string },
  ): IterableIterator<AdvantageSampleRow> {
    const kinds = JSON.stringify(splitParam(split).split(','));
    return this.advantageRowsStmt.iterate({
      run: runId,
      kinds,
      method: credit?.method ?? '',
      hash: credit?.hash ?? '',
    });
  }

  /** The advantage convention a parameter set's pass used (its params' `advantage`), if recorded. */
  paramsAdvantage(runId: number, method: string, hash: string): string | undefined {
    return this.paramsAdvantageStmt.get(runId, method, hash)?.advantage ?? undefined;
  }

  /** The roster rows of the run's stepped episodes in `scope`, with the agent's credit advantage, in (step, group, episode, agent) order. */
  samples(runId: number, method: string, hash: string, scope: SignalScope): IterableIterator<SignalSampleRow> {
    const listed = scope.kind === 'steps';
    const params: Record<string, BindValue> = { run: runId, method, hash };
    if (listed) params['steps'] = JSON.stringify(scope.steps);
    return this.stmt(this.samplesStmts, listed).iterate(params);
  }

  /** Replaces the cells of one parameter set of a run in `scope` (every step of it, or those listed) by `cells`, in one transaction. */
  replace(runId: number, method: string, hash: string, scope: SignalScope, cells: readonly SignalCell[]): void {
    const listed = scope.kind === 'steps';
    const params: Record<string, BindValue> = { run: runId, method, hash };
    if (listed) params['steps'] = JSON.stringify(scope.steps);
    this.db.transaction(() => {
      this.stmt(this.clearStmts, listed).run(params);
      const values = cells.flatMap((c) => [
        c.splitKind,
        c.step,
        c.agentId,
        c.n,
        c.opposite,
        c.zero,
        c.sharedOnly,
        c.rho !== null && Number.isFinite(c.rho) ? c.rho : null,
        c.noGroup,
        c.noCredit,
        c.noReward,
      ]);
      if (cells.length > 0) this.insert.run(values, cells.length, [runId, method, hash]);
    })();
  }

  /** The run's cells of one parameter set per (step, agent), over the episodes in `split`, by step then agent id. */
  byStep(runId: number, method: string, hash: string, split: SplitChoice): SignalStepAgent[] {
    return this.byStepStmt.all({ run: runId, method, hash, split: splitParam(split) });
  }

  /** One agent's (by name) counts summed over steps `from`–`to` (inclusive); undefined when no cell is stored there. */
  window(
    runId: number,
    key: { method: string; hash: string },
    agent: string,
    steps: readonly [number, number],
    split: SplitChoice,
  ): SignalCounts | undefined {
    const row = this.windowStmt.get({
      run: runId,
      method: key.method,
      hash: key.hash,
      agent,
      from: steps[0],
      to: steps[1],
      split: splitParam(split),
    });
    return row && row.cells > 0
      ? { n: row.n, opposite: row.opposite, zero: row.zero, sharedOnly: row.sharedOnly }
      : undefined;
  }

  private stmt<T>(from: ReadonlyMap<boolean, Statement<T>>, listed: boolean): Statement<T> {
    const statement = from.get(listed);
    if (!statement) throw new Error('signal statement missing');
    return statement;
  }
}
