import type { AuditFlag } from '../core/auditReport';
import type { Db, Statement } from './database';
import { EpisodeFlagCounts } from './episodeFlags';
import { splitCondition, splitParam } from './splitFilter';
import type { SplitChoice } from '../core/split';
import { groupByEpisode } from './groupByEpisode';

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

interface EpisodeRow {
  episode_id: number;
  external_id: string;
  train_step: number | null;
  outcome: number | null;
  final_answer: string | null;
  uri: string;
  format: string;
  line: number;
  byte_offset: number;
  byte_length: number;
}

interface RosterRow {
  episode_id: number;
  agent_id: number;
  name: string;
  kind: string;
  trainable: number | null;
  declared: number;
  n_messages: number;
  n_tokens: number | null;
  n_chars: number;
}

/** Reads episodes for the audit and stores its flags (replacing a run's previous audit). */
export class AuditRepository {
  private readonly pageStmt: Statement<EpisodeRow>;
  private readonly rosterStmt: Statement<RosterRow>;
  private readonly agentIdStmt: Statement<{ agent_id: number }>;
  private readonly clearStmt: Statement;
  private readonly insertStmt: Statement;
  private readonly flagCounts: EpisodeFlagCounts;

  constructor(private readonly db: Db) {
    this.flagCounts = new EpisodeFlagCounts(db);
    this.pageStmt = db.prepare(`
      SELECT e.episode_id, e.external_id, e.train_step, e.outcome, e.final_answer, s.uri, s.format, e.line, e.byte_offset, e.byte_length
      FROM episode e JOIN source s ON s.source_id = e.source_id
      WHERE e.run_id = ? AND e.episode_id > ? AND ${splitCondition('e')} ORDER BY e.episode_id LIMIT ?`);
    this.rosterStmt = db.prepare(`
      SELECT ea.episode_id, ea.agent_id, a.name, a.kind, a.trainable, ea.declared, ea.n_messages, ea.n_tokens, ea.n_chars
      FROM episode_agent ea JOIN agent a USING (agent_id) WHERE ea.episode_id BETWEEN ? AND ? ORDER BY ea.episode_id, ea.ordinal`);
    this.agentIdStmt = db.prepare('SELECT agent_id FROM agent WHERE run_id = ? AND name = ?');
    this.clearStmt = db.prepare('DELETE FROM flag WHERE run_id = ?');
    this.insertStmt = db.prepare(`
      INSERT INTO flag (run_id, scope_kind, scope_id, agent_id, kind, score, evidence_json, computed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  /** Every episode of a run in the split (default all, see core/split.ts) in id order, a page at a time. */
  *episodes(runId: number, pageSize = 2000, split: SplitChoice = 'all'): Generator<AuditEpisode> {
    let after = 0;
    for (;;) {
      const page = this.pageStmt.all(runId, after, splitParam(split), pageSize);
      if (page.length === 0) return;
      const first = page[0]?.episode_id ?? 0;
      const last = page[page.length - 1]?.episode_id ?? 0;
      const rosters = groupByEpisode(this.rosterStmt.all(first, last));
      for (const row of page) yield toEpisode(row, rosters.get(row.episode_id) ?? []);
      after = last;
    }
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

function toEpisode(row: EpisodeRow, roster: readonly RosterRow[]): AuditEpisode {
  return {
    episodeId: row.episode_id,
    externalId: row.external_id,
    step: row.train_step ?? 0,
    reward: row.outcome,
    finalAnswer: row.final_answer,
    uri: row.uri,
    format: row.format,
    line: row.line,
    offset: row.byte_offset,
    length: row.byte_length,
    agents: roster.map((r) => ({
      agentId: r.agent_id,
      name: r.name,
      declared: r.declared === 1,
      messages: r.n_messages,
      tokens: r.n_tokens,
      chars: r.n_chars,
      kind: r.kind,
      trainable: r.trainable === null ? null : r.trainable === 1,
    })),
  };
}
