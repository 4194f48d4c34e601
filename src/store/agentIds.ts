import type { AgentDecl } from '../core/episode';
import type { Db, Statement } from './database';

/**
 * Resolves agent names to ids within a run, creating agents on first sight. Ids are cached; the
 * cache must be cleared when a transaction that created agents rolls back.
 */
export class AgentIds {
  private readonly cache = new Map<string, number>();
  /** Details last written per agent, so a repeated declaration costs no UPDATE. */
  private readonly applied = new Map<string, string>();
  private readonly insertStmt: Statement<{ agent_id: number }>;
  private readonly enrichStmt: Statement;

  constructor(db: Db) {
    this.insertStmt = db.prepare(`
      INSERT INTO agent (run_id, name, kind, policy_id, trainable, description) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, name) DO UPDATE SET name = excluded.name
      RETURNING agent_id`);
    // A later declaration may add detail an earlier bare-name one lacked; never erase known detail.
    this.enrichStmt = db.prepare(`
      UPDATE agent SET kind = ?, policy_id = coalesce(?, policy_id), trainable = coalesce(?, trainable),
        description = coalesce(?, description) WHERE agent_id = ?`);
  }

  /** The id of `name` in `runId`, creating a plain `llm` agent when it is new. */
  idOf(runId: number, name: string): number {
    const key = `${runId}\u0000${name}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const row = this.insertStmt.get(runId, name, 'llm', null, null, null);
    if (!row) throw new Error(`could not register agent "${name}"`);
    this.cache.set(key, row.agent_id);
    return row.agent_id;
  }

  /**
   * The id of a declared agent. Its kind and details are written whenever a declaration brings
   * ones not yet applied in this process (the SQL keeps known details that a later bare
   * declaration lacks), so an incremental pass and a full re-index record the same agent.
   */
  declare(runId: number, agent: AgentDecl): number {
    const id = this.idOf(runId, agent.name);
    if (
      agent.kind === 'llm' &&
      agent.policy === undefined &&
      agent.trainable === undefined &&
      agent.description === undefined
    )
      return id;
    const key = `${runId}\u0000${agent.name}`;
    const signature = `${agent.kind}\u0000${agent.policy ?? ''}\u0000${agent.trainable ?? ''}\u0000${agent.description ?? ''}`;
    if (this.applied.get(key) === signature) return id;
    const trainable = agent.trainable === undefined ? null : agent.trainable ? 1 : 0;
    this.enrichStmt.run(agent.kind, agent.policy ?? null, trainable, agent.description ?? null, id);
    this.applied.set(key, signature);
    return id;
  }

  clear(): void {
    this.cache.clear();
    this.applied.clear();
  }
}
