import type { ChatClientStats } from '../core/chat';
import type { CreditParams, CreditRow } from '../core/creditInput';
import type { BindValue, Db, Statement } from './database';
import { MultiInsert } from './multiInsert';
import { splitCondition, splitParam } from './splitFilter';
import { sqlBoolean } from './sqlValues';
import { WriteSpan } from './writeSpan';
import type { SplitChoice } from '../core/split';

/** A stored credit value with its episode and agent, as the CLI and exports print it (snake_case on purpose: the column names users read). */
export interface CreditOutputRow {
  readonly episode_id: number;
  readonly external_id: string;
  readonly train_step: number | null;
  readonly group_id: string | null;
  readonly outcome: number | null;
  readonly agent: string;
  readonly message_seq: number | null;
  readonly method: string;
  readonly value: number | null;
  readonly stderr: number | null;
  readonly ci_low: number | null;
  readonly ci_high: number | null;
  readonly advantage: number | null;
  readonly approximate: number;
  readonly source: string | null;
  /** exact | estimated | approximate. */
  readonly status: string;
  readonly intervention: string | null;
}

/** A failed episode of a credit pass. */
export interface CreditFailure {
  readonly episodeId: number;
  readonly reason: string;
  /** `not-identifiable` when the data cannot answer (with a remedy); `failed` otherwise (default). */
  readonly status?: 'failed' | 'not-identifiable';
  readonly remedy?: string;
}

/** A failed or not-identifiable episode with where it is: its file and line, its id and step. */
export type LocatedFailure = CreditFailure & {
  readonly where: string;
  readonly episode: string;
  readonly step: number | null;
};

/** An episode a parameter set could not compute, as reports print it (snake_case like {@link CreditOutputRow}). */
export interface CreditProblemRow {
  readonly episode_id: number;
  readonly external_id: string;
  readonly train_step: number | null;
  readonly group_id: string | null;
  readonly outcome: number | null;
  readonly method: string;
  readonly status: string;
  readonly reason: string;
  readonly remedy: string | null;
}

/** A stored calibration of an evaluator on a run. */
export interface StoredCalibration {
  readonly evaluator: string;
  readonly sampled: number;
  readonly agreed: number;
  readonly threshold: number;
  readonly accepted: boolean;
  readonly reason?: string;
  readonly example?: unknown;
}

/** What one credit pass spent on an evaluator that calls a model server (never the key): the client's totals and more. */
export interface EvaluatorUsage extends ChatClientStats {
  /** Episodes of the pass that failed (not those the data cannot answer). */
  readonly failedEpisodes: number;
  /** What the pass was estimated to cost before it ran. */
  readonly estimate?: { readonly calls: number; readonly promptTokens: number; readonly completionTokens: number };
}

/** Rows of one advantage update statement. */
const advantageChunk = 128;

/** (credit_id, advantage) pairs in growable typed arrays: a run's millions of rows without a JS object each. */
class AdvantageBuffer {
  private ids: Float64Array = new Float64Array(1024);
  private values: Float64Array = new Float64Array(1024);
  length = 0;

  push(creditId: number, advantage: number): void {
    if (this.length === this.ids.length) {
      this.ids = grow(this.ids);
      this.values = grow(this.values);
    }
    this.ids[this.length] = creditId;
    this.values[this.length++] = advantage;
  }

  /** Bind values (credit_id, advantage or null, …) of `count` rows from `start`. */
  pairs(start: number, count: number): BindValue[] {
    const bind: BindValue[] = [];
    for (let i = start; i < start + count; i++) {
      const value = this.values[i] ?? Number.NaN;
      bind.push(this.ids[i] ?? null, Number.isNaN(value) ? null : value);
    }
    return bind;
  }
}

function grow(array: Float64Array): Float64Array {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** The columns {@link CreditRepository.writeCredit} fills per row, in the order it lays out their values. */
const creditColumns = [
  'episode_id',
  'agent_id',
  'message_seq',
  'value',
  'stderr',
  'n',
  'ci_low',
  'ci_high',
  'advantage',
  'source',
  'status',
  'intervention',
] as const;

/** The columns every row of one {@link CreditRepository.writeCredit} shares, bound once per statement. */
const sharedCreditColumns = ['set_id', 'computed_at'] as const;

/** An evaluator result for the evaluation cache, as {@link CreditRepository.storeEvaluations} takes it. */
export interface NewCachedEvaluation {
  readonly episodeId: number;
  readonly evaluator: string;
  readonly intervention: string;
  readonly value: number;
  readonly replayed: boolean;
}

/**
 * Computed credit and the evaluator cache. An episode's credit rows are replaced as a whole in one
 * transaction, so a reader never sees a mix of old and new rows, nor a partial episode. A pass's
 * writes share a {@link WriteSpan} (committed at most a second apart); the pass ends it with
 * {@link CreditRepository.endWrites}.
 */
export class CreditRepository {
  private readonly cachedStmt: Statement<{ intervention: string; value: number; replayed: number }>;
  private readonly problemStmt: Statement<CreditProblemRow>;
  private readonly failureStmt: Statement<
    Omit<LocatedFailure, 'status' | 'remedy'> & { status: LocatedFailure['status'] | null; remedy: string | null }
  >;
  private readonly calibrationStmt: Statement;
  private readonly cacheStmt: Statement;
  private readonly clearStmt: Statement;
  private readonly clearErrorStmt: Statement;
  private readonly insertRows: MultiInsert;
  private readonly addSetStmt: Statement;
  private readonly setStmt: Statement<{ setId: number }>;
  private readonly newestStmt: Statement;
  private readonly paramsStmt: Statement;
  private readonly hasParamsStmt: Statement<{ found: number }>;
  private readonly errorStmt: Statement;
  private readonly groupRowsStmt: Statement<{ credit_id: number; group_id: string; agent_id: number; value: number }>;
  private readonly someGroupRowsStmt: Statement<{
    credit_id: number;
    group_id: string;
    agent_id: number;
    value: number;
  }>;
  /** `UPDATE … FROM (VALUES …)` statements by row count (see {@link setAdvantages}). */
  private readonly advantageStmts = new Map<number, Statement>();
  private readonly outputStmt: Statement<CreditOutputRow>;
  private readonly storeUsageStmt: Statement;
  private readonly usageStmt: Statement<Omit<EvaluatorUsage, 'estimate'> & { estimateJson: string | null }>;
  private readonly span: WriteSpan;

  constructor(private readonly db: Db) {
    this.span = new WriteSpan(db);
    this.cachedStmt = db.prepare(
      'SELECT intervention, value, replayed FROM evaluation WHERE episode_id = ? AND evaluator = ?',
    );
    this.cacheStmt = db.prepare(`
      INSERT INTO evaluation (episode_id, evaluator, intervention, value, replayed, computed_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET value = excluded.value, replayed = excluded.replayed, computed_at = excluded.computed_at`);
    this.problemStmt = db.prepare(`
      SELECT x.episode_id, e.external_id, e.train_step, e.group_id, e.outcome, x.method, x.status, x.reason, x.remedy
      FROM credit_error x JOIN episode e ON e.episode_id = x.episode_id
      WHERE x.run_id = ? AND x.params_hash = ? AND coalesce(e.train_step, 0) BETWEEN ? AND ? ORDER BY x.episode_id`);
    this.failureStmt = db.prepare(`
      SELECT x.episode_id AS episodeId, x.reason, x.status, x.remedy, e.external_id AS episode, e.train_step AS step,
        s.uri || ':' || e.line AS "where"
      FROM credit_error x JOIN episode e ON e.episode_id = x.episode_id JOIN source s ON s.source_id = e.source_id
      WHERE x.run_id = ? AND x.params_hash = ? AND coalesce(e.train_step, 0) BETWEEN ? AND ? AND ${splitCondition('e')}
      ORDER BY x.episode_id`);
    this.calibrationStmt = db.prepare(`
      INSERT INTO calibration (run_id, evaluator, sampled, agreed, threshold, accepted, reason, example_json, computed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET sampled = excluded.sampled, agreed = excluded.agreed, threshold = excluded.threshold, accepted = excluded.accepted,
        reason = excluded.reason, example_json = excluded.example_json, computed_at = excluded.computed_at`);
    // The episodes of one write as a JSON array: one statement per write, not two per episode.
    const written = 'episode_id IN (SELECT value FROM json_each(?))';
    this.clearStmt = db.prepare(`
      DELETE FROM credit_value WHERE set_id IN (SELECT set_id FROM credit_set WHERE method = ? AND params_hash = ?) AND ${written}`);
    this.clearErrorStmt = db.prepare(`DELETE FROM credit_error WHERE method = ? AND params_hash = ? AND ${written}`);
    // The rows go to the table behind the view `credit` (migration 0023), under their set's id.
    this.insertRows = new MultiInsert(db, 'credit_value', creditColumns, 64, sharedCreditColumns);
    this.addSetStmt = db.prepare('INSERT OR IGNORE INTO credit_set (run_id, method, params_hash) VALUES (?, ?, ?)');
    this.setStmt = db.prepare(
      'SELECT set_id AS setId FROM credit_set WHERE method = ? AND params_hash = ? AND run_id = ?',
    );
    this.newestStmt = db.prepare('UPDATE credit_set SET newest = ? WHERE set_id = ?');
    // A parameter set's JSON is stored once, not on each of its rows (credit.params_json stays NULL; migration 0012).
    this.paramsStmt = db.prepare(`
      INSERT INTO credit_params (run_id, method, params_hash, params_json) VALUES (?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET params_json = excluded.params_json`);
    // credit_params is written with every write; the row checks cover indexes written before it existed.
    this.hasParamsStmt = db.prepare(`
      SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM credit_params WHERE run_id = :run AND params_hash = :hash)
        OR EXISTS (SELECT 1 FROM credit WHERE method = :method AND params_hash = :hash AND run_id = :run)
        OR EXISTS (SELECT 1 FROM credit_error WHERE method = :method AND params_hash = :hash AND run_id = :run)`);
    this.errorStmt = db.prepare(`
      INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, status, remedy, computed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET reason = excluded.reason, status = excluded.status, remedy = excluded.remedy, computed_at = excluded.computed_at`);
    // Both walk the run's episodes in group order (episode_group) and take their agent-level rows from
    // the covering index credit_agent_value: no episode row is read, and only a group's rows are sorted.
    const groupRows = (groups: string): string => `
      SELECT c.credit_id, e.group_id, c.agent_id, c.value FROM episode e INDEXED BY episode_group
      JOIN credit c ON c.episode_id = e.episode_id AND c.method = ? AND c.params_hash = ? AND c.message_seq IS NULL
      WHERE e.run_id = ? AND ${groups}
      ORDER BY e.group_id, c.agent_id, c.episode_id`;
    this.groupRowsStmt = db.prepare(groupRows('e.group_id IS NOT NULL'));
    // The groups of some episodes only (a recompute of one episode must not rewrite the whole run).
    this.someGroupRowsStmt = db.prepare(
      groupRows(
        'e.group_id IN (SELECT g.group_id FROM episode g WHERE g.episode_id IN (SELECT value FROM json_each(?)))',
      ),
    );
    this.outputStmt = db.prepare(`
      SELECT c.episode_id, e.external_id, e.train_step, e.group_id, e.outcome, a.name AS agent, c.message_seq, c.method, c.value,
        c.stderr, c.ci_low, c.ci_high, c.advantage, c.approximate, c.source, c.status, c.intervention
      FROM credit c JOIN episode e ON e.episode_id = c.episode_id JOIN agent a ON a.agent_id = c.agent_id
      WHERE c.run_id = ? AND c.params_hash = ? AND coalesce(e.train_step, 0) BETWEEN ? AND ? AND ${splitCondition('e')}
      ORDER BY c.episode_id, c.method, c.message_seq IS NOT NULL, c.message_seq, c.agent_id`);
    this.storeUsageStmt = db.prepare(`
      INSERT INTO evaluator_usage (run_id, method, params_hash, params_json, calls, failed_calls, retries, prompt_tokens,
        completion_tokens, elapsed_ms, failed_episodes, estimate_json, computed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO UPDATE SET params_json = excluded.params_json, calls = excluded.calls, failed_calls = excluded.failed_calls,
        retries = excluded.retries, prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
        elapsed_ms = excluded.elapsed_ms, failed_episodes = excluded.failed_episodes, estimate_json = excluded.estimate_json,
        computed_at = excluded.computed_at`);
    this.usageStmt = db.prepare(`
      SELECT calls, failed_calls AS failedCalls, retries, prompt_tokens AS promptTokens, completion_tokens AS completionTokens,
        elapsed_ms AS elapsedMs, failed_episodes AS failedEpisodes, estimate_json AS estimateJson
      FROM evaluator_usage WHERE run_id = ? AND method = ? AND params_hash = ?`);
  }

  /** Stores what the latest pass of one parameter set of a run spent on its evaluator (replacing the previous pass's). */
  storeUsage(runId: number, params: CreditParams, usage: EvaluatorUsage): void {
    this.storeUsageStmt.run(
      runId,
      params.method,
      params.hash,
      JSON.stringify(params.params),
      usage.calls,
      usage.failedCalls,
      usage.retries,
      usage.promptTokens,
      usage.completionTokens,
      Math.round(usage.elapsedMs),
      usage.failedEpisodes,
      usage.estimate === undefined ? null : JSON.stringify(usage.estimate),
      new Date().toISOString(),
    );
  }

  /** What the latest pass of one parameter set of a run spent on its evaluator, if it called one that reports it. */
  usage(runId: number, params: CreditParams): EvaluatorUsage | undefined {
    const row = this.usageStmt.get(runId, params.method, params.hash);
    if (!row) return undefined;
    const { estimateJson, ...usage } = row;
    return { ...usage, ...(estimateJson ? { estimate: JSON.parse(estimateJson) as EvaluatorUsage['estimate'] } : {}) };
  }

  /** Stored rows of one parameter set of a run (all its methods) in a step range and split (default all), in episode order. */
  outputRows(runId: number, paramsHash: string, ...range: StepRangeAndSplit): IterableIterator<CreditOutputRow> {
    return this.outputStmt.iterate(runId, paramsHash, ...rangeParams(...range));
  }

  /** Episodes of one parameter set of a run that failed or are not identifiable, in a step range. */
  problemRows(runId: number, paramsHash: string, fromStep = -1e15, toStep = 1e15): CreditProblemRow[] {
    return this.problemStmt.all(runId, paramsHash, Math.max(-1e15, fromStep), Math.min(1e15, toStep));
  }

  /** Every failed or not-identifiable episode of one parameter set of a run in a step range and split (default all), streamed. */
  *failures(runId: number, paramsHash: string, ...range: StepRangeAndSplit): IterableIterator<LocatedFailure> {
    for (const { status, remedy, ...row } of this.failureStmt.iterate(runId, paramsHash, ...rangeParams(...range)))
      yield { ...row, ...(status !== null ? { status } : {}), ...(remedy !== null ? { remedy } : {}) };
  }

  storeCalibration(runId: number, c: StoredCalibration): void {
    this.calibrationStmt.run(
      runId,
      c.evaluator,
      c.sampled,
      c.agreed,
      c.threshold,
      c.accepted ? 1 : 0,
      c.reason ?? null,
      c.example === undefined ? null : JSON.stringify(c.example),
      new Date().toISOString(),
    );
  }

  /**
   * Sets every agent-level row's `advantage` to `advantages(values)` computed within its GRPO group
   * and agent (credit-methods.md §3.15), for one method and parameter set of a run; with
   * `episodeIds`, only in the groups of those episodes.
   */
  updateGroupAdvantages(
    runId: number,
    params: CreditParams,
    advantages: (values: Float64Array) => Float64Array,
    episodeIds?: readonly number[],
  ): void {
    // Streamed in (group, agent, episode) order: one group in memory at a time, the results in typed
    // arrays (16 bytes a row), written once the read is done (a connection cannot write mid-iteration).
    const rows = episodeIds
      ? this.someGroupRowsStmt.iterate(params.method, params.hash, runId, JSON.stringify(episodeIds))
      : this.groupRowsStmt.iterate(params.method, params.hash, runId);
    const out = new AdvantageBuffer();
    let group: { credit_id: number; group_id: string; agent_id: number; value: number }[] = [];
    const flush = (): void => {
      if (group.length === 0) return;
      const values = advantages(Float64Array.from(group, (r) => r.value));
      group.forEach((r, k) => out.push(r.credit_id, values[k] ?? Number.NaN));
      group = [];
    };
    for (const row of rows) {
      const last = group[group.length - 1];
      if (last && (row.group_id !== last.group_id || row.agent_id !== last.agent_id)) flush();
      group.push(row);
    }
    flush();
    this.db.transaction(() => this.setAdvantages(out))();
  }

  /** Sets `advantage` of the buffered rows (NaN: none) with one statement per {@link advantageChunk} rows. */
  private setAdvantages(out: AdvantageBuffer): void {
    for (let start = 0; start < out.length; start += advantageChunk) {
      const rows = Math.min(advantageChunk, out.length - start);
      let statement = this.advantageStmts.get(rows);
      if (!statement) {
        const list = Array<string>(rows).fill('(?, ?)').join(', ');
        statement = this.db.prepare(
          `UPDATE credit_value SET advantage = v.column2 FROM (VALUES ${list}) AS v WHERE credit_value.credit_id = v.column1`,
        );
        this.advantageStmts.set(rows, statement);
      }
      statement.run(...out.pairs(start, rows));
    }
  }

  /** Cached evaluator results of one episode, by intervention key. */
  cachedEvaluations(episodeId: number, evaluator: string): Map<string, { value: number; replayed: boolean }> {
    return new Map(
      this.cachedStmt
        .all(episodeId, evaluator)
        .map((r) => [r.intervention, { value: r.value, replayed: sqlBoolean(r.replayed) }]),
    );
  }

  storeEvaluations(rows: readonly NewCachedEvaluation[]): void {
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const r of rows)
        this.cacheStmt.run(r.episodeId, r.evaluator, r.intervention, r.value, r.replayed ? 1 : 0, now);
    })();
  }

  /**
   * Whether the run has stored credit (or a failure) of this parameter set (the hash covers the
   * method: the other methods a pass writes, as routing's `wta`, share the primary method's hash).
   */
  hasParams(runId: number, params: CreditParams): boolean {
    return this.hasParamsStmt.get({ run: runId, method: params.method, hash: params.hash }) !== undefined;
  }

  /**
   * Replaces the credit of the given episodes for one method and parameter set, and records the
   * episodes that failed (their old rows are removed too, so nothing stale looks complete).
   * `replace` false skips that removal, for a pass that knows no row of the parameter set is stored.
   */
  writeCredit(
    runId: number,
    params: CreditParams,
    rows: readonly CreditRow[],
    failures: readonly CreditFailure[],
    replace = true,
  ): void {
    const now = new Date().toISOString();
    this.span.write(() => {
      if (replace) this.clearEpisodes(params, rows, failures);
      this.paramsStmt.run(runId, params.method, params.hash, JSON.stringify(params.params));
      if (rows.length > 0) {
        const setId = this.setId(runId, params);
        const first = this.insertRows.run(creditValues(rows), rows.length, [setId, now]);
        this.newestStmt.run(first + rows.length - 1, setId); // row ids of one write are consecutive (multiInsert.ts)
      }
      for (const f of failures)
        this.errorStmt.run(
          runId,
          f.episodeId,
          params.method,
          params.hash,
          f.reason,
          f.status ?? 'failed',
          f.remedy ?? null,
          now,
        );
    });
  }

  /** The id of the run's parameter set of one method, added on first use (credit_set, migration 0023). */
  private setId(runId: number, params: CreditParams): number {
    this.addSetStmt.run(runId, params.method, params.hash);
    const set = this.setStmt.get(params.method, params.hash, runId);
    if (set === undefined) throw new Error(`no credit set for ${params.method} ${params.hash} of run ${String(runId)}`);
    return set.setId;
  }

  /** Commits the writes of {@link writeCredit} still in the open span; creditForRun calls it when a pass ends. */
  endWrites(): void {
    this.span.commit();
  }

  /** Removes the stored rows and failures of the episodes of a write, for one method and parameter set. */
  private clearEpisodes(params: CreditParams, rows: readonly CreditRow[], failures: readonly CreditFailure[]): void {
    const episodes = JSON.stringify([
      ...new Set([...rows.map((r) => r.episodeId), ...failures.map((f) => f.episodeId)]),
    ]);
    this.clearStmt.run(params.method, params.hash, episodes);
    this.clearErrorStmt.run(params.method, params.hash, episodes);
  }
}

/** The per-row values of credit rows, laid out row-major in the order of {@link creditColumns}. */
function creditValues(rows: readonly CreditRow[]): BindValue[] {
  const values: BindValue[] = [];
  for (const r of rows) {
    values.push(
      r.episodeId,
      r.agentId,
      r.messageSeq,
      r.value,
      r.stderr,
      r.n,
      r.ciLow,
      r.ciHigh,
      r.advantage,
      r.source,
      r.status,
      r.intervention,
    );
  }
  return values;
}

/** An optional inclusive step range and a split, as the row readers take them. */
type StepRangeAndSplit = [fromStep?: number, toStep?: number, split?: SplitChoice];

/** The range clamped to what SQLite binds (±1e15 for ±∞), and the split's parameter. */
function rangeParams(fromStep = -1e15, toStep = 1e15, split: SplitChoice = 'all'): [number, number, string] {
  return [Math.max(-1e15, fromStep), Math.min(1e15, toStep), splitParam(split)];
}
