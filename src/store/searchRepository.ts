import type { PendingSearchEpisode, SearchRow } from '../core/indexing';
import { packedText, type PackedTexts } from '../core/packedTexts';
import type { Db, Statement } from './database';

interface PendingRow {
  episode_id: number;
  external_id: string;
  format: string;
  uri: string;
  line: number;
  byte_offset: number;
  byte_length: number;
  n_messages: number;
}

/** Where one episode's search document is in a batch's texts: the episode, the document's index. */
export type TextSlot = readonly [episodeId: number, text: number];

/**
 * The full-text index over message content (contentless FTS5, migration 0019): one document per
 * episode, its messages' texts joined by newlines (so no term spans two messages), rowid = episode_id.
 */
export class SearchRepository {
  private readonly pendingStmt: Statement<PendingRow>;
  private readonly insertStmt: Statement;
  private readonly markStmt: Statement;
  private readonly searchStmt: Statement<{ rowid: number }>;
  private readonly anyRowStmt: Statement;
  private readonly countUpToStmt: Statement<{ n: number }>;
  private readonly unsearchedStmt: Statement<{ n: number }>;

  constructor(private readonly db: Db) {
    this.pendingStmt = db.prepare(`
      SELECT e.episode_id, e.external_id, s.format, s.uri, e.line, e.byte_offset, e.byte_length, e.n_messages
      FROM episode_unsearched u JOIN episode e ON e.episode_id = u.episode_id JOIN source s ON s.source_id = e.source_id
      ORDER BY u.episode_id LIMIT ?`);
    this.insertStmt = db.prepare('INSERT INTO episode_fts (rowid, content) VALUES (?, ?)');
    this.markStmt = db.prepare('DELETE FROM episode_unsearched WHERE episode_id = ?');
    this.searchStmt = db.prepare('SELECT rowid FROM episode_fts WHERE episode_fts MATCH ? ORDER BY rowid LIMIT ?');
    // contentless_delete=1 keeps one docsize row per indexed episode.
    this.anyRowStmt = db.prepare('SELECT 1 FROM episode_fts_docsize LIMIT 1');
    this.countUpToStmt = db.prepare(
      'SELECT count(*) AS n FROM (SELECT 1 FROM episode_fts WHERE episode_fts MATCH ? LIMIT ?)',
    );
    this.unsearchedStmt = db.prepare('SELECT count(*) AS n FROM episode_unsearched');
  }

  /**
   * Episodes of the whole index not yet in the full-text index (a pass is still building it, or the
   * search stage has not reached them): a search cannot match them. Counts a narrow table of ids.
   */
  unsearchedCount(): number {
    return this.unsearchedStmt.get()?.n ?? 0;
  }

  /** True when the full-text index holds no message (a cold pass may then build it apart, sideSearchIndex.ts). */
  isEmpty(): boolean {
    return this.anyRowStmt.get() === undefined;
  }

  /** Episodes not yet in the full-text index, oldest first. */
  pending(limit: number): PendingSearchEpisode[] {
    return this.pendingStmt.all(limit).map((row) => ({
      episodeId: row.episode_id,
      externalId: row.external_id,
      format: row.format,
      uri: row.uri,
      line: row.line,
      offset: row.byte_offset,
      length: row.byte_length,
      nMessages: row.n_messages,
    }));
  }

  /**
   * Adds each slot's episode with its search document (inside the caller's transaction; the
   * episodes were inserted as searchable). An empty document (no message) adds nothing.
   */
  insertSlots(slots: readonly TextSlot[], texts: PackedTexts): void {
    for (const [episodeId, at] of slots) {
      const text = packedText(texts, at);
      if (text.length > 0) this.insertStmt.run(episodeId, text);
    }
  }

  /** Adds episodes' search documents and marks the episodes searchable, in one transaction. */
  write(episodeIds: readonly number[], rows: readonly SearchRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) this.insertStmt.run(row.episodeId, row.content);
      for (const id of episodeIds) this.markStmt.run(id);
    })();
  }

  /**
   * Episodes matching an FTS5 query over their messages together (terms, `prefix*`, AND / OR /
   * NOT; no phrase queries, since the index is built with detail=none), in index order. Throws on
   * a malformed query.
   */
  search(query: string, limit = 100): number[] {
    return this.searchStmt.all(query, limit).map(({ rowid }) => rowid);
  }

  /**
   * True when `query` matches at most `limit` episodes, reading at most `limit + 1` of them (so the
   * answer costs the same for a term in every episode). Throws on a malformed query.
   */
  matchesAtMost(query: string, limit: number): boolean {
    return (this.countUpToStmt.get(query, limit + 1)?.n ?? 0) <= limit;
  }
}
