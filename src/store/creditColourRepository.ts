import type { Db, Statement } from './database';

/** The smallest and largest logged team reward of a run. */
export interface RewardSpan {
  readonly min: number;
  readonly max: number;
}

/**
 * What the views need to colour credit on a fixed scale: the run's logged reward span (credit that
 * conserves the reward is bounded by it) and the steps whose episodes the data cannot answer.
 */
export class CreditColourRepository {
  // Each is one seek on episode_outcome (run_id, outcome): SQLite's min/max optimisation skips NULLs.
  private readonly minStmt: Statement<{ v: number | null }>;
  private readonly maxStmt: Statement<{ v: number | null }>;
  private readonly unidentifiedStmt: Statement<{ step: number }>;

  constructor(db: Db) {
    this.minStmt = db.prepare('SELECT min(outcome) AS v FROM episode WHERE run_id = ?');
    this.maxStmt = db.prepare('SELECT max(outcome) AS v FROM episode WHERE run_id = ?');
    // By credit_error's key (method, params_hash, episode_id): the parameter set's error rows only.
    this.unidentifiedStmt = db.prepare(`
      SELECT DISTINCT e.train_step AS step FROM credit_error x JOIN episode e ON e.episode_id = x.episode_id
      WHERE x.method = :method AND x.params_hash = :hash AND x.status = 'not-identifiable'
        AND e.run_id = :run AND e.train_step IS NOT NULL
      ORDER BY 1`);
  }

  /** The run's logged reward span; null when no episode of the run logs a reward. */
  rewardSpan(runId: number): RewardSpan | null {
    const min = this.minStmt.get(runId)?.v ?? null;
    const max = this.maxStmt.get(runId)?.v ?? null;
    return min === null || max === null ? null : { min, max };
  }

  /** Training steps (ascending) with an episode that is not identifiable under the parameter set. */
  unidentifiedSteps(runId: number, method: string, paramsHash: string): number[] {
    return this.unidentifiedStmt.all({ run: runId, method, hash: paramsHash }).map((r) => r.step);
  }
}
