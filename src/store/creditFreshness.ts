import type { SplitChoice } from '../core/split';
import type { Db, Statement } from './database';
import { splitCondition, splitParam } from './splitFilter';

/**
 * Whether an episode's stored credit of one parameter set is current. Episodes are never updated in
 * place (a changed file's episodes are deleted, their credit with them, and inserted anew), and an
 * episode's credit rows or its failure are written as a whole: so an episode that has a credit row or
 * a recorded failure for the method and `params_hash` is current, and one with neither is missing.
 */
export class CreditFreshness {
  private readonly missingStmt: Statement<{ episode_id: number }>;

  constructor(db: Db) {
    this.missingStmt = db.prepare(`
      SELECT e.episode_id FROM episode e
      WHERE e.run_id = ? AND coalesce(e.train_step, 0) BETWEEN ? AND ? AND ${splitCondition('e')}
        AND NOT EXISTS (SELECT 1 FROM credit c WHERE c.episode_id = e.episode_id AND c.method = ? AND c.params_hash = ?)
        AND NOT EXISTS (SELECT 1 FROM credit_error x WHERE x.episode_id = e.episode_id AND x.method = ? AND x.params_hash = ?)
      ORDER BY e.episode_id`);
  }

  /** Ids of the run's episodes (steps in [fromStep, toStep], in the split) with no current credit of the parameter set. */
  missingEpisodes(
    runId: number,
    method: string,
    paramsHash: string,
    [fromStep, toStep]: readonly [number, number],
    split: SplitChoice,
  ): number[] {
    const clamp = (step: number): number => Math.max(-1e15, Math.min(1e15, step));
    // Row by row: a run's every id at once as row objects (1.3 million at 10 GB) took the first audit
    // of the 10 GB run to a 713 MiB peak on Node 24; row by row, 225 (BENCHMARKS.md, issue 15, 25th part).
    const ids: number[] = [];
    const params = [runId, clamp(fromStep), clamp(toStep), splitParam(split), method, paramsHash, method, paramsHash];
    for (const row of this.missingStmt.iterate(...params)) ids.push(row.episode_id);
    return ids;
  }
}
