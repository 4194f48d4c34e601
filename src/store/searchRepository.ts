import type { PendingSearchEpisode, SearchRow } from '../core/indexing';
import type { Db, Statement } from './database';

interface PendingRow {
  episode_id: number;
  uri: string;
  byte_offset: number;
  byte_length: number;
  message_ids: string | null;
}

/** A message that matched a full-text query. */
export interface SearchHit {
  readonly messageId: number;
  readonly episodeId: number;
  readonly seq: number;
}

/** The full-text index over message content (contentless FTS5; rowid = message_id). */
export class SearchRepository {
  private readonly pendingStmt: Statement<PendingRow>;
  private readonly insertStmt: Statement;
  private readonly markStmt: Statement;
  private readonly searchStmt: Statement<{ message_id: number; episode_id: number; seq: number }>;

  constructor(private readonly db: Db) {
    this.pendingStmt = db.prepare(`
      SELECT e.episode_id, s.uri, e.byte_offset, e.byte_length,
        (SELECT group_concat(m.message_id) FROM (SELECT message_id FROM message WHERE episode_id = e.episode_id ORDER BY seq) m) AS message_ids
      FROM episode e JOIN source s ON s.source_id = e.source_id
      WHERE e.search_indexed = 0 ORDER BY e.episode_id LIMIT ?`);
    this.insertStmt = db.prepare('INSERT INTO message_fts (rowid, content) VALUES (?, ?)');
    this.markStmt = db.prepare('UPDATE episode SET search_indexed = 1 WHERE episode_id = ?');
    this.searchStmt = db.prepare(`
      SELECT m.message_id, m.episode_id, m.seq FROM message_fts f JOIN message m ON m.message_id = f.rowid
      WHERE message_fts MATCH ? ORDER BY m.message_id LIMIT ?`);
  }

  pending(limit: number): PendingSearchEpisode[] {
    return this.pendingStmt.all(limit).map((row) => ({
      episodeId: row.episode_id,
      uri: row.uri,
      offset: row.byte_offset,
      length: row.byte_length,
      messageIds: row.message_ids ? row.message_ids.split(',').map(Number) : [],
    }));
  }

  write(episodeIds: readonly number[], rows: readonly SearchRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) this.insertStmt.run(row.messageId, row.content);
      for (const id of episodeIds) this.markStmt.run(id);
    })();
  }

  /**
   * Messages matching an FTS5 query (terms, `prefix*`, AND / OR / NOT; no phrase queries, since
   * the index is built with detail=none), in index order. Throws on a malformed query.
   */
  search(query: string, limit = 100): SearchHit[] {
    return this.searchStmt.all(query, limit).map((r) => ({ messageId: r.message_id, episodeId: r.episode_id, seq: r.seq }));
  }
}
