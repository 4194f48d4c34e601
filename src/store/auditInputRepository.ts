import type { SplitChoice } from '../core/split';
import type { Db, Statement } from './database';
import { groupByEpisode } from './groupByEpisode';
import { splitCondition, splitParam } from './splitFilter';
import { sqlBoolean, sqlNullableBoolean } from './sqlValues';

/** What the audit needs of one episode: outcome, location, roster activity. */
export interface AuditEpisode {
  readonly episodeId: number;
  readonly externalId: string;
  readonly step: number;
  readonly reward: number | null;
  readonly finalAnswer: string | null;
  readonly uri: string;
  /** The importer of the file (source.format). */
  readonly format: string;
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  /** Roster in ordinal order (the message authors in `messages_json` index into it). */
  readonly agents: readonly {
    readonly agentId: number;
    readonly name: string;
    readonly declared: boolean;
    readonly messages: number;
    readonly tokens: number | null;
    readonly chars: number;
    /** llm | tool | env | human | user_sim | orchestrator | system | judge. */
    readonly kind: string;
    /** The roster's `trainable`, or null when it does not say. */
    readonly trainable: boolean | null;
  }[];
}

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

/** A page row: the episode without its roster. */
type EpisodeRow = Omit<AuditEpisode, 'agents'>;

/** A roster row: the agent with its episode, and its 0/1 columns as stored. */
type RosterRow = Omit<AuditEpisode['agents'][number], 'declared' | 'trainable'> & {
  readonly episodeId: number;
  readonly declared: number;
  readonly trainable: number | null;
};

type CreditRow = StoredCredit & { readonly episodeId: number; readonly agentId: number };

/** Episodes read a page at a time, with their rosters and credit (three range queries a page). */
const pageSize = 2000;

/**
 * What the audit reads: a run's episodes with their rosters and stored credit, a page at a time in
 * id order; the episode count per training step (its windows); the first stored failure of a
 * parameter set.
 */
export class AuditInputRepository {
  private readonly pageStmt: Statement<EpisodeRow>;
  private readonly rosterStmt: Statement<RosterRow>;
  private readonly stepCountStmt: Statement<{ step: number; episodes: number }>;
  private readonly creditStmt: Statement<CreditRow>;
  private readonly failureStmt: Statement<{ reason: string; remedy: string | null }>;

  constructor(db: Db) {
    // `+e.run_id`: walk the episodes in id order from the last page's end; an index on run_id would
    // make every page scan and sort the whole run (quadratic in the run's size).
    this.pageStmt = db.prepare(`
      SELECT e.episode_id AS episodeId, e.external_id AS externalId, coalesce(e.train_step, 0) AS step, e.outcome AS reward,
        e.final_answer AS finalAnswer, s.uri, s.format, e.line, e.byte_offset AS offset, e.byte_length AS length
      FROM episode e JOIN source s ON s.source_id = e.source_id
      WHERE +e.run_id = ? AND e.episode_id > ? AND ${splitCondition('e')} ORDER BY e.episode_id LIMIT ?`);
    this.rosterStmt = db.prepare(`
      SELECT ea.episode_id AS episodeId, ea.agent_id AS agentId, a.name, ea.declared, ea.n_messages AS messages,
        ea.n_tokens AS tokens, ea.n_chars AS chars, a.kind, a.trainable
      FROM episode_agent ea JOIN agent a USING (agent_id) WHERE ea.episode_id BETWEEN ? AND ? ORDER BY ea.episode_id, ea.ordinal`);
    this.stepCountStmt = db.prepare(`
      SELECT coalesce(e.train_step, 0) AS step, count(*) AS episodes FROM episode e
      WHERE e.run_id = ? AND ${splitCondition('e')} GROUP BY 1 ORDER BY 1`);
    this.creditStmt = db.prepare(`
      SELECT episode_id AS episodeId, agent_id AS agentId, value, status FROM credit
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
   * Every episode of a run in the split (in id order) with its stored credit of `key`, a page at a
   * time; without a key no episode has credit.
   */
  *episodes(runId: number, key: StoredCreditKey | undefined, split: SplitChoice = 'all'): Generator<EpisodeWithCredit> {
    for (let after = 0; ;) {
      const page = this.pageStmt.all(runId, after, splitParam(split), pageSize);
      const first = page[0]?.episodeId;
      const last = page[page.length - 1]?.episodeId;
      if (first === undefined || last === undefined) return;
      const rosters = groupByEpisode(this.rosterStmt.all(first, last));
      const credit = key ? this.creditOf(first, last, key) : new Map<number, Map<number, StoredCredit>>();
      for (const row of page)
        yield {
          episode: { ...row, agents: (rosters.get(row.episodeId) ?? []).map(toAgent) },
          credit: credit.get(row.episodeId) ?? new Map(),
        };
      after = last;
    }
  }

  /** Stored credit of the episodes with ids in [first, last], by episode and agent id. */
  private creditOf(first: number, last: number, key: StoredCreditKey): Map<number, Map<number, StoredCredit>> {
    const byEpisode = new Map<number, Map<number, StoredCredit>>();
    for (const row of this.creditStmt.iterate(first, last, key.method, key.paramsHash)) {
      const credit = byEpisode.get(row.episodeId) ?? new Map<number, StoredCredit>();
      credit.set(row.agentId, { value: row.value, status: row.status });
      byEpisode.set(row.episodeId, credit);
    }
    return byEpisode;
  }
}

/** A roster row as the audit reads it: without its episode id, the 0/1 columns as booleans. */
function toAgent({ episodeId: _episode, declared, trainable, ...agent }: RosterRow): AuditEpisode['agents'][number] {
  return { ...agent, declared: sqlBoolean(declared), trainable: sqlNullableBoolean(trainable) };
}
