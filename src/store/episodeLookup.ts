import type { Db, Statement } from './database';

/** Where an episode's trace line is. */
export interface EpisodeLocation {
  /** The episode's row id in the index. */
  readonly episodeId: number;
  /** The run's name (`""` for a run at the folder's root). */
  readonly run: string;
  /** Trace file relative to the indexed folder, with `/` separators. */
  readonly uri: string;
  /** 1-based line of the episode in that file. */
  readonly line: number;
}

/** Finds episodes by the id their trace gives them (`external_id`). */
export class EpisodeLookup {
  private readonly byIdStmt: Statement<EpisodeLocation>;

  constructor(db: Db) {
    this.byIdStmt = db.prepare(`
      SELECT e.episode_id AS episodeId, r.name AS run, s.uri, e.line FROM episode e
      JOIN source s ON s.source_id = e.source_id JOIN run r ON r.run_id = e.run_id
      WHERE e.external_id = ? ORDER BY r.root, s.uri, e.line`);
  }

  /** Every episode with this external id, one per run (ids are unique within a run); empty when none. */
  byExternalId(externalId: string): EpisodeLocation[] {
    return this.byIdStmt.all(externalId);
  }
}
