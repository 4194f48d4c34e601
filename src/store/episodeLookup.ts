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

/** An episode offered while its id is typed: where it is, and what tells it apart. */
export interface EpisodeSuggestion extends EpisodeLocation {
  readonly externalId: string;
  readonly step: number | null;
  readonly group: string | null;
  readonly reward: number | null;
}

/** Most suggestions one prefix lists. */
export const maxSuggestions = 50;

const columns = `e.episode_id AS episodeId, r.name AS run, s.uri, e.line`;
const joins = `JOIN source s ON s.source_id = e.source_id JOIN run r ON r.run_id = e.run_id`;

/**
 * The ids starting with :prefix, as a range of the episode_external index: every such id is at
 * least the prefix and below the prefix followed by the highest code point (U+10FFFF), so the
 * scan stops after :limit rows whatever the index's size.
 */
export const byPrefixSql = `
  SELECT ${columns}, e.external_id AS externalId, e.train_step AS step, e.group_id AS "group", e.outcome AS reward
  FROM episode e INDEXED BY episode_external ${joins}
  WHERE e.external_id >= :prefix AND e.external_id < :prefix || char(1114111)
  ORDER BY e.external_id LIMIT :limit`;

/** Finds episodes by the id their trace gives them (`external_id`). */
export class EpisodeLookup {
  private readonly byIdStmt: Statement<EpisodeLocation>;
  private readonly byPrefixStmt: Statement<EpisodeSuggestion>;
  private readonly atLineStmt: Statement<EpisodeLocation>;

  constructor(db: Db) {
    this.byIdStmt = db.prepare(`
      SELECT ${columns} FROM episode e ${joins} WHERE e.external_id = ? ORDER BY r.root, s.uri, e.line`);
    this.byPrefixStmt = db.prepare(byPrefixSql);
    this.atLineStmt = db.prepare(`SELECT ${columns} FROM episode e ${joins} WHERE s.uri = ? AND e.line = ?`);
  }

  /** The episode read from line `line` (1-based) of trace file `uri` (relative, `/` separators); undefined when none. */
  atLine(uri: string, line: number): EpisodeLocation | undefined {
    return this.atLineStmt.get(uri, line);
  }

  /** Every episode with this external id, one per run (ids are unique within a run); empty when none. */
  byExternalId(externalId: string): EpisodeLocation[] {
    return this.byIdStmt.all(externalId);
  }

  /** At most `limit` (≤ {@link maxSuggestions}) episodes whose id starts with `prefix`, by id. */
  byPrefix(prefix: string, limit = maxSuggestions): EpisodeSuggestion[] {
    const rows = Math.max(0, Math.min(maxSuggestions, Math.floor(limit)));
    return this.byPrefixStmt.all({ prefix, limit: rows });
  }
}
