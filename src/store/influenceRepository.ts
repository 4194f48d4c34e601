import type { Db, Statement } from './database';
import { groupByEpisode } from './groupByEpisode';

/** One stored influence edge (migration 0017), with the agents' names. */
export interface StoredInfluenceEdge {
  readonly episodeId: number;
  readonly fromAgent: string;
  /** Null: the episode's outcome. */
  readonly toAgent: string | null;
  readonly fromSeq: number | null;
  readonly toSeq: number | null;
  readonly kind: string;
  readonly weight: number;
  readonly provenance: string;
}

interface EdgeRow {
  episode_id: number;
  from_agent: string;
  to_agent: string | null;
  src_seq: number | null;
  dst_seq: number | null;
  kind: string;
  weight: number;
  provenance: string;
}

/** Reads the influence edges a trace logged (`influence_edge`, written with the episode by EpisodeWriter). */
export class InfluenceRepository {
  private readonly rangeStmt: Statement<EdgeRow>;
  private readonly runStmt: Statement<{ run_id: number; mechanism: string | null }>;

  constructor(db: Db) {
    this.rangeStmt = db.prepare(`
      SELECT ie.episode_id, s.name AS from_agent, d.name AS to_agent, ie.src_seq, ie.dst_seq, ie.kind, ie.weight, ie.provenance
      FROM influence_edge ie JOIN agent s ON s.agent_id = ie.src_agent_id LEFT JOIN agent d ON d.agent_id = ie.dst_agent_id
      WHERE ie.episode_id BETWEEN ? AND ? ORDER BY ie.episode_id, ie.edge_id`);
    this.runStmt = db.prepare(
      'SELECT r.run_id, r.mechanism FROM episode e JOIN run r ON r.run_id = e.run_id WHERE e.episode_id = ?',
    );
  }

  /** The run of an episode and its mechanism; undefined when there is no such episode. */
  runOf(episodeId: number): { runId: number; mechanism: string | null } | undefined {
    const row = this.runStmt.get(episodeId);
    return row && { runId: row.run_id, mechanism: row.mechanism };
  }

  /** The edges of the episodes with row ids in [first, last], grouped by episode id, in the order stored. */
  edgesBetween(first: number, last: number): Map<number, StoredInfluenceEdge[]> {
    const byEpisode = new Map<number, StoredInfluenceEdge[]>();
    for (const [episodeId, rows] of groupByEpisode(this.rangeStmt.all(first, last))) {
      byEpisode.set(
        episodeId,
        rows.map((r) => ({
          episodeId,
          fromAgent: r.from_agent,
          toAgent: r.to_agent,
          fromSeq: r.src_seq,
          toSeq: r.dst_seq,
          kind: r.kind,
          weight: r.weight,
          provenance: r.provenance,
        })),
      );
    }
    return byEpisode;
  }
}
