import type { RunAudit } from '../core/auditReport';
import { defaultSplit, type SplitChoice } from '../core/split';
import type { Db, Statement } from './database';
import { splitCondition, splitParam } from './splitFilter';

const inSplit = (alias: string): string => splitCondition(alias, ':split');

/** One agent-level credit value of an episode (step null: the episode logs none). */
export interface AgentCreditValue {
  readonly agentId: number;
  readonly step: number | null;
  readonly value: number;
}

/** What an agent wrote over a run's episodes, from the index's roster counts. */
export interface AgentActivity {
  readonly agentId: number;
  readonly episodes: number;
  readonly messages: number;
  /** Logged tokens; null when no episode logs them for the agent. */
  readonly tokens: number | null;
}

/** The audit's text checks of one agent (a rate is null when the text was not read). */
export interface AuditedAgent {
  readonly agent: string;
  readonly emptyRate: number | null;
  readonly copyRate: number | null;
}

/** What the last audit of a run found beyond its flags (migration 0014). */
export interface AuditSummaryRecord {
  readonly method: string;
  readonly auditedAt: string;
  readonly agents: readonly AuditedAgent[];
  readonly unreachable: readonly string[];
}

// Agent-level credit drawn by the views (exact or estimated), as the dashboard's per-step credit reads it.
const creditValuesSql = `
  SELECT c.agent_id AS agentId, e.train_step AS step, c.value FROM episode e CROSS JOIN credit c
  WHERE e.run_id = :run AND ${inSplit('e')} AND c.method = :method AND c.params_hash = :hash AND c.episode_id = e.episode_id
    AND c.message_seq IS NULL AND c.value IS NOT NULL AND c.status IN ('exact', 'estimated')`;
// The "shared" signal: every roster agent gets the logged team reward.
const sharedValuesSql = `
  SELECT ea.agent_id AS agentId, e.train_step AS step, e.outcome AS value FROM episode e JOIN episode_agent ea ON ea.episode_id = e.episode_id
  WHERE e.run_id = :run AND ${inSplit('e')} AND e.outcome IS NOT NULL`;
const activitySql = `
  SELECT ea.agent_id AS agentId, count(*) AS episodes, sum(ea.n_messages) AS messages, sum(ea.n_tokens) AS tokens
  FROM episode e JOIN episode_agent ea ON ea.episode_id = e.episode_id
  WHERE e.run_id = :run AND ${inSplit('e')} GROUP BY ea.agent_id`;

const countsSql = `
  SELECT count(*) AS episodes, coalesce(sum(e.train_step IS NULL), 0) AS stepless, count(e.outcome) AS rewarded
  FROM episode e WHERE e.run_id = :run AND ${inSplit('e')}`;

/** Episodes of a run: all, those that log no training step, those that log a team reward. */
export interface EpisodeCounts {
  readonly episodes: number;
  readonly stepless: number;
  readonly rewarded: number;
}

/** The per-agent inputs of the dashboard's agent summary, and the stored audit summary of a run. */
export class AgentSummaryRepository {
  private readonly creditStmt: Statement<AgentCreditValue>;
  private readonly sharedStmt: Statement<AgentCreditValue>;
  private readonly activityStmt: Statement<AgentActivity>;
  private readonly auditStmt: Statement<{
    method: string;
    auditedAt: string;
    agentsJson: string;
    unreachableJson: string;
  }>;
  private readonly saveStmt: Statement;
  private readonly countsStmt: Statement<EpisodeCounts>;

  constructor(db: Db) {
    this.creditStmt = db.prepare(creditValuesSql);
    this.sharedStmt = db.prepare(sharedValuesSql);
    this.activityStmt = db.prepare(activitySql);
    this.countsStmt = db.prepare(countsSql);
    this.auditStmt = db.prepare(
      `SELECT method, audited_at AS auditedAt, agents_json AS agentsJson, unreachable_json AS unreachableJson
       FROM audit_summary WHERE run_id = ?`,
    );
    this.saveStmt = db.prepare(`
      INSERT INTO audit_summary (run_id, method, audited_at, agents_json, unreachable_json) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (run_id) DO UPDATE SET method = excluded.method, audited_at = excluded.audited_at,
        agents_json = excluded.agents_json, unreachable_json = excluded.unreachable_json`);
  }

  /** Drawn agent-level credit of one parameter set over the episodes in `split`. */
  creditValues(
    runId: number,
    method: string,
    paramsHash: string,
    split: SplitChoice = defaultSplit,
  ): AgentCreditValue[] {
    return this.creditStmt.all({ run: runId, method, hash: paramsHash, split: splitParam(split) });
  }

  /** The `shared` signal of every roster agent over the episodes in `split` that log a team reward. */
  sharedValues(runId: number, split: SplitChoice = defaultSplit): AgentCreditValue[] {
    return this.sharedStmt.all({ run: runId, split: splitParam(split) });
  }

  /** Episodes, messages and tokens of each roster agent over the episodes in `split`. */
  activity(runId: number, split: SplitChoice = defaultSplit): AgentActivity[] {
    return this.activityStmt.all({ run: runId, split: splitParam(split) });
  }

  /** How many of the run's episodes in `split` there are, log no step, log a team reward. */
  episodeCounts(runId: number, split: SplitChoice = defaultSplit): EpisodeCounts {
    return this.countsStmt.get({ run: runId, split: splitParam(split) }) ?? { episodes: 0, stepless: 0, rewarded: 0 };
  }

  /** The run's last audit summary; undefined when the run was never audited (or the row is unreadable). */
  auditSummary(runId: number): AuditSummaryRecord | undefined {
    const row = this.auditStmt.get(runId);
    if (!row) return undefined;
    try {
      const agents = JSON.parse(row.agentsJson) as AuditedAgent[];
      const unreachable = JSON.parse(row.unreachableJson) as string[];
      if (!Array.isArray(agents) || !Array.isArray(unreachable)) return undefined;
      return { method: row.method, auditedAt: row.auditedAt, agents, unreachable };
    } catch {
      return undefined;
    }
  }

  /** Replaces the run's audit summary with what `audit` found (`now`: when it ran). */
  saveAudit(runId: number, audit: RunAudit, now = new Date()): void {
    this.saveStmt.run(
      runId,
      audit.method,
      now.toISOString(),
      JSON.stringify(audit.agents.map((a) => ({ agent: a.agent, emptyRate: a.emptyRate, copyRate: a.copyRate }))),
      JSON.stringify(audit.unreachable),
    );
  }
}
