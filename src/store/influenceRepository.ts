import { clampStep } from './creditInputRepository';
import type { Db, Statement } from './database';

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

/** An edge as `episode_influence.edges_json` stores it (migration 0021). */
type StoredEdgeValues = [number, number | null, number | null, number | null, string, number, string];

/** One cached replayed-influence value. */
interface StoredReplayedValue {
  readonly evaluator: string;
  readonly intervention: string;
  readonly value: number;
  readonly computedAt: string;
}

/**
 * Sums over a set of episodes that change when one of them is deleted or replaced by a row at
 * another place in its file: how many, and the totals of their row ids, byte offsets, byte
 * lengths and lines. Additive, so the fingerprint of what was read grows with each episode read.
 */
export interface EpisodeFingerprint {
  readonly count: number;
  readonly ids: number;
  readonly offsets: number;
  readonly lengths: number;
  readonly lines: number;
}

/** Reads the influence edges a trace logged (`episode_influence`, written with the episode by EpisodeWriter) and the replayed ones cached. */
export class InfluenceRepository {
  private readonly rangeStmt: Statement;
  private readonly agentNameStmt: Statement<{ name: string }>;
  /** Agent names by id, read once each: an agent row never changes its name. */
  private readonly agentNames = new Map<number, string>();
  private readonly runStmt: Statement<{ runId: number; mechanism: string | null }>;
  private readonly fingerprintStmt: Statement<EpisodeFingerprint>;
  private readonly replayedStmt: Statement<StoredReplayedValue>;

  constructor(db: Db) {
    this.rangeStmt = db.prepare(
      'SELECT episode_id, edges_json FROM episode_influence WHERE episode_id BETWEEN ? AND ? ORDER BY episode_id',
    );
    this.agentNameStmt = db.prepare('SELECT name FROM agent WHERE agent_id = ?');
    this.runStmt = db.prepare(
      'SELECT r.run_id AS runId, r.mechanism FROM episode e JOIN run r ON r.run_id = e.run_id WHERE e.episode_id = ?',
    );
    // The episodes CreditInputRepository.episodes() yields for (run, steps), up to a row id.
    this.fingerprintStmt = db.prepare(`
      SELECT count(*) AS count, total(episode_id) AS ids, total(byte_offset) AS offsets, total(byte_length) AS lengths,
        total(line) AS lines
      FROM episode WHERE run_id = ? AND episode_id <= ? AND coalesce(train_step, 0) BETWEEN ? AND ?`);
    // Replayed influence lives in the evaluation cache (engine/influence/replayedEdges.ts names its keys).
    this.replayedStmt = db.prepare(`
      SELECT evaluator, intervention, value, computed_at AS computedAt FROM evaluation
      WHERE episode_id = ? AND (intervention LIKE 'message-effect@%' OR intervention LIKE 'output@%' OR intervention LIKE 'answer@%')
      ORDER BY evaluator, intervention`);
  }

  /**
   * The replayed influence values of one episode (evaluation cache rows under the keys of
   * engine/influence/replayedEdges.ts) of the replay set-up (evaluator fingerprint) last used on it;
   * empty when none was.
   */
  replayedValues(episodeId: number): { evaluator: string; values: Map<string, number> } | undefined {
    const rows = this.replayedStmt.all(episodeId);
    let latest: StoredReplayedValue | undefined;
    for (const r of rows) if (!latest || r.computedAt > latest.computedAt) latest = r;
    if (!latest) return undefined;
    const evaluator = latest.evaluator;
    return {
      evaluator,
      values: new Map(rows.filter((r) => r.evaluator === evaluator).map((r) => [r.intervention, r.value])),
    };
  }

  /** The run of an episode and its mechanism; undefined when there is no such episode. */
  runOf(episodeId: number): { runId: number; mechanism: string | null } | undefined {
    return this.runStmt.get(episodeId);
  }

  /** The edges of the episodes with row ids in [first, last], grouped by episode id, in the order stored. */
  edgesBetween(first: number, last: number): Map<number, StoredInfluenceEdge[]> {
    const byEpisode = new Map<number, StoredInfluenceEdge[]>();
    for (const [episodeId, json] of this.rangeStmt.allValues(first, last)) {
      const edges = (JSON.parse(json as string) as StoredEdgeValues[]).map(
        ([from, to, fromSeq, toSeq, kind, weight, provenance]): StoredInfluenceEdge => ({
          episodeId: episodeId as number,
          fromAgent: this.agentName(from),
          toAgent: to === null ? null : this.agentName(to),
          fromSeq,
          toSeq,
          kind,
          weight,
          provenance,
        }),
      );
      byEpisode.set(episodeId as number, edges);
    }
    return byEpisode;
  }

  private agentName(agentId: number): string {
    let name = this.agentNames.get(agentId);
    if (name === undefined) {
      name = this.agentNameStmt.get(agentId)?.name ?? String(agentId);
      this.agentNames.set(agentId, name);
    }
    return name;
  }

  /** The {@link EpisodeFingerprint} of run `runId`'s episodes with steps in [fromStep, toStep] (none: 0) and row ids up to `lastId`. */
  fingerprint(runId: number, fromStep: number, toStep: number, lastId: number): EpisodeFingerprint {
    const row = this.fingerprintStmt.get(runId, lastId, clampStep(fromStep), clampStep(toStep));
    return row ?? { count: 0, ids: 0, offsets: 0, lengths: 0, lines: 0 };
  }
}
