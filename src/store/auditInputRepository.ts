import type { SplitChoice } from '../core/split';
import type { AuditEpisode } from './auditRepository';
import type { Db, Statement } from './database';
import { splitCondition, splitParam } from './splitFilter';

/** A stored agent-level credit value with its status (exact | estimated | approximate). */
export interface StoredCredit {
  readonly value: number;
  readonly status: string;
}

/** Which stored credit the audit reads: one method of one parameter set (`credit.params_hash`). */
export interface StoredCreditKey {
  readonly method: string;
  readonly paramsHash: string;
}

/** An episode of the audit with its stored credit, by agent id. */
export interface EpisodeWithCredit {
  readonly episode: AuditEpisode;
  readonly credit: ReadonlyMap<number, StoredCredit>;
}

interface CreditRow {
  readonly episode_id: number;
  readonly agent_id: number;
  readonly value: number;
  readonly status: string;
}

/** Episodes read before their credit is fetched in one range query. */
const batchSize = 2000;

/**
 * What the audit reads besides the episodes themselves: the episode count per training step (its
 * windows), the stored credit of a page of episodes, and the first stored failure of a parameter set.
 */
export class AuditInputRepository {
  private readonly stepCountStmt: Statement<{ step: number; episodes: number }>;
  private readonly creditStmt: Statement<CreditRow>;
  private readonly failureStmt: Statement<{ reason: string; remedy: string | null }>;

  constructor(db: Db) {
    this.stepCountStmt = db.prepare(`
      SELECT coalesce(e.train_step, 0) AS step, count(*) AS episodes FROM episode e
      WHERE e.run_id = ? AND ${splitCondition('e')} GROUP BY 1 ORDER BY 1`);
    this.creditStmt = db.prepare(`
      SELECT episode_id, agent_id, value, status FROM credit
      WHERE episode_id BETWEEN ? AND ? AND method = ? AND params_hash = ? AND message_seq IS NULL AND value IS NOT NULL
      ORDER BY episode_id, credit_id`);
    this.failureStmt = db.prepare(`
      SELECT x.reason, x.remedy FROM credit_error x JOIN episode e ON e.episode_id = x.episode_id
      WHERE x.run_id = ? AND x.method = ? AND x.params_hash = ? AND ${splitCondition('e')} ORDER BY x.episode_id LIMIT 1`);
  }

  /** Episodes per training step (no step counts as 0) of a run in a split, by step. */
  stepCounts(runId: number, split: SplitChoice = 'all'): { step: number; episodes: number }[] {
    return this.stepCountStmt.all(runId, splitParam(split));
  }

  /** The first (lowest episode id) failure stored for a parameter set of a run, if any. */
  firstFailure(
    runId: number,
    key: StoredCreditKey,
    split: SplitChoice = 'all',
  ): { reason: string; remedy: string | null } | undefined {
    return this.failureStmt.get(runId, key.method, key.paramsHash, splitParam(split));
  }

  /**
   * Pairs each episode of `episodes` (in id order) with its stored credit of `key`, fetching the
   * credit of {@link batchSize} episodes at a time; without a key every episode gets no credit.
   */
  *withCredit(episodes: Iterable<AuditEpisode>, key: StoredCreditKey | undefined): Generator<EpisodeWithCredit> {
    let batch: AuditEpisode[] = [];
    for (const episode of episodes) {
      batch.push(episode);
      if (batch.length < batchSize) continue;
      yield* this.creditOf(batch, key);
      batch = [];
    }
    yield* this.creditOf(batch, key);
  }

  private *creditOf(batch: readonly AuditEpisode[], key: StoredCreditKey | undefined): Generator<EpisodeWithCredit> {
    const first = batch[0]?.episodeId;
    const last = batch[batch.length - 1]?.episodeId;
    const byEpisode = new Map<number, Map<number, StoredCredit>>();
    if (key && first !== undefined && last !== undefined)
      for (const row of this.creditStmt.iterate(first, last, key.method, key.paramsHash)) {
        const credit = byEpisode.get(row.episode_id) ?? new Map<number, StoredCredit>();
        credit.set(row.agent_id, { value: row.value, status: row.status });
        byEpisode.set(row.episode_id, credit);
      }
    for (const episode of batch) yield { episode, credit: byEpisode.get(episode.episodeId) ?? new Map() };
  }
}
