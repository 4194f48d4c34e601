import type { AuditFlag } from '../core/auditReport';
import type { Db, Statement } from './database';
import { EpisodeFlagCounts } from './episodeFlags';

/** Stores the audit's flags (replacing a run's previous audit); its reads are in auditInputRepository.ts. */
export class AuditRepository {
  private readonly agentIdStmt: Statement<{ agent_id: number }>;
  private readonly clearStmt: Statement;
  private readonly insertStmt: Statement;
  private readonly flagCounts: EpisodeFlagCounts;

  constructor(private readonly db: Db) {
    this.flagCounts = new EpisodeFlagCounts(db);
    this.agentIdStmt = db.prepare('SELECT agent_id FROM agent WHERE run_id = ? AND name = ?');
    this.clearStmt = db.prepare('DELETE FROM flag WHERE run_id = ?');
    this.insertStmt = db.prepare(`
      INSERT INTO flag (run_id, scope_kind, scope_id, agent_id, kind, score, evidence_json, computed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  /** Replaces the run's flags with this audit's, and recounts the flags covering each episode. */
  replaceFlags(runId: number, flags: readonly AuditFlag[]): void {
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.clearStmt.run(runId);
      for (const flag of flags) {
        const agentId = flag.agent === undefined ? null : (this.agentIdStmt.get(runId, flag.agent)?.agent_id ?? null);
        const scopeId =
          flag.scope === 'episode' ? (flag.episode ?? '') : flag.steps ? `${flag.steps[0]}..${flag.steps[1]}` : '';
        const score = typeof flag.evidence['score'] === 'number' ? flag.evidence['score'] : null;
        this.insertStmt.run(
          runId,
          flag.scope,
          scopeId,
          agentId,
          flag.kind,
          score,
          JSON.stringify({
            ...flag.evidence,
            location: flag.location,
            ...(flag.locations ? { locations: flag.locations } : {}),
          }),
          now,
        );
      }
      this.flagCounts.rebuild(runId);
    })();
  }
}
