import type { Db, Statement } from './database';
import { splitKindOf } from './splitFilter';

// The credit side of the Run Dashboard's aggregates (migration 0011): agent-level credit and
// coverage per (run, method, parameter set, split kind, step), written by the credit pass when it
// ends, for the steps it wrote: the cells a first whole pass tallied as it went, else rebuilt from
// the stored rows. credit_view_state.fresh says whether a run's rows can be read:
// 0 while a pass writes (a crash leaves it so), and once an episode of the run is deleted (trigger).

/** Which steps of a run a credit pass wrote: all, or those listed (`unstepped`: episodes without a step too). */
export type AggregateScope =
  { readonly kind: 'all' } | { readonly kind: 'steps'; readonly steps: readonly number[]; readonly unstepped: boolean };

// `:steps` is a JSON array of steps; `listed` restricts a statement to them (one episode_step seek each).
const inScope = (listed: boolean): string =>
  listed ? 'AND e.train_step IN (SELECT value FROM json_each(:steps))' : '';

const creditRowsOf = (listed: boolean): string => `
  INSERT INTO credit_step_agent
  SELECT :run, :method, :hash, t.epsilon, ${splitKindOf('e')}, e.train_step, c.agent_id, sum(c.value), count(*),
    sum(coalesce(ea.n_messages <> 0, 1)), sum(coalesce(ea.n_messages <> 0, 1) AND abs(c.value) <= t.epsilon)
  FROM episode e CROSS JOIN credit c LEFT JOIN episode_agent ea ON ea.episode_id = c.episode_id AND ea.agent_id = c.agent_id
    CROSS JOIN view_tolerance t
  WHERE e.run_id = :run AND e.train_step IS NOT NULL ${inScope(listed)}
    AND c.method = :method AND c.params_hash = :hash AND c.episode_id = e.episode_id AND c.message_seq IS NULL
    AND c.value IS NOT NULL AND c.status IN ('exact', 'estimated')
  GROUP BY 4, 5, 6, 7`;

// `stepped`: the episodes with a step (all or those listed), else those without one.
const coverageRowsOf = (listed: boolean, stepped: boolean): string => {
  const where = stepped ? `e.train_step IS NOT NULL ${inScope(listed)}` : 'e.train_step IS NULL';
  return `
  INSERT INTO credit_step_coverage
  SELECT :run, :method, :hash, split_kind, train_step, sum(drawn), sum(approximate), sum(unidentified), sum(failed) FROM (
    SELECT ${splitKindOf('e')} AS split_kind, e.train_step, max(c.status IN ('exact', 'estimated')) AS drawn,
      max(c.status = 'approximate') AS approximate, 0 AS unidentified, 0 AS failed
    FROM episode e CROSS JOIN credit c
    WHERE e.run_id = :run AND ${where} AND c.method = :method AND c.params_hash = :hash AND c.episode_id = e.episode_id
      AND c.message_seq IS NULL
    GROUP BY e.episode_id
    UNION ALL
    SELECT ${splitKindOf('e')}, e.train_step, 0, 0, x.status = 'not-identifiable', x.status <> 'not-identifiable'
    FROM credit_error x CROSS JOIN episode e
    WHERE x.method = :method AND x.params_hash = :hash AND x.run_id = :run AND e.episode_id = x.episode_id AND ${where})
  GROUP BY split_kind, train_step`;
};

const clearOf = (table: string, listed: boolean): string =>
  `DELETE FROM ${table} WHERE run_id = :run AND method = :method AND params_hash = :hash ${
    listed ? 'AND train_step IN (SELECT value FROM json_each(:steps))' : ''
  }`;

// The run's parameter sets: those with aggregates, and those with agent-level credit rows (a loose
// index scan of credit_key: one seek per method and parameter set, then one row of the run).
const parameterSetsSql = `
  WITH RECURSIVE
    methods(method) AS (SELECT min(method) FROM credit UNION ALL
      SELECT (SELECT min(method) FROM credit WHERE method > m.method) FROM methods m WHERE m.method IS NOT NULL),
    sets(method, hash) AS (SELECT method, (SELECT min(params_hash) FROM credit c WHERE c.method = m.method) FROM methods m
      WHERE method IS NOT NULL UNION ALL
      SELECT method, (SELECT min(params_hash) FROM credit c WHERE c.method = s.method AND c.params_hash > s.hash) FROM sets s
      WHERE s.hash IS NOT NULL)
  SELECT method, hash FROM sets s WHERE hash IS NOT NULL
    AND EXISTS (SELECT 1 FROM credit c WHERE c.method = s.method AND c.params_hash = s.hash AND c.run_id = :run)
  UNION SELECT method, params_hash FROM credit_step_coverage WHERE run_id = :run
  UNION SELECT method, params_hash FROM credit_error WHERE run_id = :run`;

/** One row of `credit_step_agent` of a parameter set (its run and hash given with it). */
export interface CreditStepCell {
  readonly method: string;
  readonly epsilon: number;
  readonly splitKind: string;
  readonly step: number;
  readonly agentId: number;
  readonly total: number;
  readonly n: number;
  readonly spoke: number;
  readonly idle: number;
}

/** One row of `credit_step_coverage` of a parameter set (`step` null: the episodes without one). */
export interface CoverageCell {
  readonly method: string;
  readonly splitKind: string;
  readonly step: number | null;
  readonly drawn: number;
  readonly approximate: number;
  readonly unidentified: number;
  readonly failed: number;
}

/**
 * The aggregates of one parameter set a credit pass tallied as it wrote its rows, when they are what
 * {@link CreditAggregates.rebuild} would read back: every row of the set in the pass's scope is
 * the pass's own (engine/credit/aggregateTally.ts).
 */
export interface TalliedAggregates {
  readonly hash: string;
  readonly credit: readonly CreditStepCell[];
  readonly coverage: readonly CoverageCell[];
}

/**
 * The stale mark of a run's aggregates that {@link CreditAggregates.around} writes before its pass,
 * unless the pass takes it: `take()` gives the run to mark, and the pass then writes the mark
 * ({@link markAggregatesStale}) in its own thread before any row of it can be read (a credit pass's
 * write worker, as its first commit); undefined when the mark is already written.
 */
export interface StaleMark {
  take(): number | undefined;
}

const setFreshSql = 'INSERT INTO credit_view_state VALUES (?, ?) ON CONFLICT DO UPDATE SET fresh = excluded.fresh';

/** Marks a run's aggregates stale on `db` (a pass that took its {@link StaleMark}). */
export function markAggregatesStale(db: Db, runId: number): void {
  db.prepare(setFreshSql).run(runId, 0);
}

/** The aggregates' maintenance by the credit pass and their reads by the Run Dashboard. */
export class CreditAggregates {
  private readonly freshStmt: Statement<{ fresh: number }>;
  private readonly setFreshStmt: Statement;
  private readonly setsStmt: Statement<{ method: string; hash: string }>;
  private readonly stepsOfStmt: Statement<{ step: number | null }>;
  private readonly stepRangeStmt: Statement<{ step: number }>;
  private readonly toleranceStmt: Statement<{ yes: number }>;
  private readonly write: ReadonlyMap<string, Statement>;
  private readonly tolerancesStmt: Statement<{ epsilon: number }>;
  private readonly insertCreditCellStmt: Statement;
  private readonly insertCoverageCellStmt: Statement;

  constructor(private readonly db: Db) {
    this.freshStmt = db.prepare('SELECT fresh FROM credit_view_state WHERE run_id = ?');
    this.setFreshStmt = db.prepare(setFreshSql);
    this.setsStmt = db.prepare(parameterSetsSql);
    this.stepsOfStmt = db.prepare(
      'SELECT DISTINCT train_step AS step FROM episode WHERE episode_id IN (SELECT value FROM json_each(?)) AND run_id = ?',
    );
    this.stepRangeStmt = db.prepare(
      'SELECT DISTINCT train_step AS step FROM episode WHERE run_id = ? AND train_step BETWEEN ? AND ?',
    );
    this.toleranceStmt = db.prepare('SELECT EXISTS (SELECT 1 FROM view_tolerance WHERE epsilon = ?) AS yes');
    const write = new Map<string, Statement>();
    for (const listed of [false, true]) {
      const scope = listed ? 'steps' : 'all';
      write.set(`clear-credit-${scope}`, db.prepare(clearOf('credit_step_agent', listed)));
      write.set(`clear-coverage-${scope}`, db.prepare(clearOf('credit_step_coverage', listed)));
      write.set(`credit-${scope}`, db.prepare(creditRowsOf(listed)));
      write.set(`coverage-${scope}`, db.prepare(coverageRowsOf(listed, true)));
    }
    write.set(
      'clear-coverage-unstepped',
      db.prepare(`${clearOf('credit_step_coverage', false)} AND train_step IS NULL`),
    );
    write.set('coverage-unstepped', db.prepare(coverageRowsOf(false, false)));
    this.write = write;
    this.tolerancesStmt = db.prepare('SELECT epsilon FROM view_tolerance ORDER BY epsilon');
    this.insertCreditCellStmt = db.prepare(
      'INSERT INTO credit_step_agent VALUES (:run, :method, :hash, :epsilon, :splitKind, :step, :agentId, :total, :n, :spoke, :idle)',
    );
    this.insertCoverageCellStmt = db.prepare(
      'INSERT INTO credit_step_coverage VALUES (:run, :method, :hash, :splitKind, :step, :drawn, :approximate, :unidentified, :failed)',
    );
  }

  /** The tolerances the aggregates keep idle counts at. */
  tolerances(): number[] {
    return this.tolerancesStmt.all().map((r) => r.epsilon);
  }

  /** True when the run's aggregates are current (no pass writing, none failed, no episode deleted since). */
  fresh(runId: number): boolean {
    return this.freshStmt.get(runId)?.fresh === 1;
  }

  /** True when the aggregates keep idle counts at this tolerance. */
  keepsTolerance(epsilon: number): boolean {
    return this.toleranceStmt.get(epsilon)?.yes === 1;
  }

  /**
   * What a credit pass over some episodes (ids) or a step range of a run writes (episodes without a
   * step count as step 0, as the pass reads them); the whole run without either.
   */
  scopeOf(runId: number, pass: { episodes?: readonly number[]; steps?: readonly [number, number] }): AggregateScope {
    let steps: (number | null)[];
    if (pass.episodes) steps = this.stepsOfStmt.all(JSON.stringify(pass.episodes), runId).map((r) => r.step);
    else if (pass.steps) {
      const [from, to] = pass.steps;
      steps = this.stepRangeStmt.all(runId, Math.max(from, -1e15), Math.min(to, 1e15)).map((r) => r.step);
      if (from <= 0 && 0 <= to) steps.push(null);
    } else return { kind: 'all' };
    return {
      kind: 'steps',
      steps: steps.filter((s): s is number => s !== null),
      unstepped: steps.includes(null),
    };
  }

  /**
   * Runs a credit pass of one run with its aggregates marked stale, then rebuilds them: in `scope`
   * for the parameter set `hashOf(result)` when they were current before, else every parameter set
   * of the run whole. A pass that throws leaves them stale once anything of it may be stored (the
   * views read the credit rows). A pass that wrote nothing (`wrote` false: an audit that reused
   * every stored row) leaves current ones as they are, instead of rebuilding the run at every
   * audit. `tallied`: the cells the pass tallied of its parameter set, written instead of reading
   * its rows back. The pass may write the mark itself (`mark`, {@link StaleMark}).
   */
  async around<T>(
    runId: number,
    scope: AggregateScope,
    pass: (mark: StaleMark) => Promise<T>,
    hashOf: (r: T) => string,
    wrote: (r: T) => boolean = () => true,
    tallied?: (r: T) => TalliedAggregates | undefined,
  ): Promise<T> {
    const wasFresh = this.fresh(runId);
    const marking = { byAround: false, byPass: false };
    const mark: StaleMark = {
      take: () => {
        if (marking.byAround) return undefined;
        marking.byPass = true;
        return runId;
      },
    };
    // The pass starts first, so that it can take the mark before it first waits: a pass that writes
    // in a worker writes the mark there, before its first row, and this thread does not wait for
    // the write's sync (often a new WAL file's, about 90 ms: BENCHMARKS.md, issue 15, twenty-second
    // and twenty-third parts). Otherwise the mark is written here, synchronously, before anything
    // the pass writes: the pass writes only after it first waits.
    const running = pass(mark);
    running.catch(() => undefined); // awaited below, once the mark is written (which may throw)
    if (!marking.byPass) {
      marking.byAround = true;
      this.setFreshStmt.run(runId, 0);
    }
    const result = await running;
    if (wasFresh && !wrote(result)) {
      this.setFreshStmt.run(runId, 1);
      return result;
    }
    const tallies = tallied?.(result);
    this.db.transaction(() => {
      const sets = this.setsStmt.all({ run: runId });
      // Every row of the tallied set is the pass's, in its scope: its cells replace that scope (or the
      // whole run, which holds nothing else of the set) without reading the rows back.
      const refresh = (method: string, hash: string, at: AggregateScope): void =>
        this.rebuild(runId, method, hash, at, tallies?.hash === hash ? tallies : undefined);
      if (wasFresh) {
        const hash = hashOf(result);
        for (const set of sets) if (set.hash === hash) refresh(set.method, hash, scope);
      } else for (const set of sets) refresh(set.method, set.hash, { kind: 'all' });
      this.setFreshStmt.run(runId, 1);
    })();
    return result;
  }

  /**
   * Replaces the aggregates of one parameter set of a run in `scope` by those of its credit rows, or
   * by the cells of `method` the pass tallied (`tallies`).
   */
  rebuild(runId: number, method: string, hash: string, scope: AggregateScope, tallies?: TalliedAggregates): void {
    const key = { run: runId, method, hash };
    const run = (name: string, params: Record<string, string | number>): void => {
      this.write.get(name)?.run(params);
    };
    const all = scope.kind === 'all';
    const at = all ? 'all' : 'steps';
    const listed = all ? key : { ...key, steps: JSON.stringify(scope.steps) };
    const unstepped = all || scope.unstepped;
    for (const name of [`clear-credit-${at}`, `clear-coverage-${at}`]) run(name, listed);
    if (unstepped && !all) run('clear-coverage-unstepped', key); // clearing every step clears these too
    if (tallies) {
      for (const c of tallies.credit)
        if (c.method === method) this.insertCreditCellStmt.run({ ...c, run: runId, hash });
      for (const c of tallies.coverage)
        if (c.method === method) this.insertCoverageCellStmt.run({ ...c, run: runId, hash });
      return;
    }
    for (const name of [`credit-${at}`, `coverage-${at}`]) run(name, listed);
    if (unstepped) run('coverage-unstepped', key);
  }
}
