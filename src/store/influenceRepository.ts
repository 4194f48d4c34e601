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

/** Reads the influence edges a trace logged (`influence_edge`, written with the episode by EpisodeWriter). */
export class InfluenceRepository {
  private readonly rangeStmt: Statement<StoredInfluenceEdge>;
  private readonly runStmt: Statement<{ runId: number; mechanism: string | null }>;

  constructor(db: Db) {
    this.rangeStmt = db.prepare(`
      SELECT ie.episode_id AS episodeId, s.name AS fromAgent, d.name AS toAgent, ie.src_seq AS fromSeq, ie.dst_seq AS toSeq,
        ie.kind, ie.weight, ie.provenance
      FROM influence_edge ie JOIN agent s ON s.agent_id = ie.src_agent_id LEFT JOIN agent d ON d.agent_id = ie.dst_agent_id
      WHERE ie.episode_id BETWEEN ? AND ? ORDER BY ie.episode_id, ie.edge_id`);
    this.runStmt = db.prepare(
      'SELECT r.run_id AS runId, r.mechanism FROM episode e JOIN run r ON r.run_id = e.run_id WHERE e.episode_id = ?',
    );
  }

  /** The run of an episode and its mechanism; undefined when there is no such episode. */
  runOf(episodeId: number): { runId: number; mechanism: string | null } | undefined {
    return this.runStmt.get(episodeId);
  }

  /** The edges of the episodes with row ids in [first, last], grouped by episode id, in the order stored. */
  edgesBetween(first: number, last: number): Map<number, StoredInfluenceEdge[]> {
    return groupByEpisode(this.rangeStmt.all(first, last));
  }
}
