import { rmSync } from 'node:fs';
import type { PackedTexts } from '../core/packedTexts';
import { openDatabase, type Db, type OpenOptions, type Statement } from './database';
import { SearchRepository, type TextSlot } from './searchRepository';

/** The FTS5 shadow tables of episode_fts that hold its content (%_config stays the index's own). */
const shadowTables = ['episode_fts_data', 'episode_fts_idx', 'episode_fts_docsize'] as const;

/**
 * Bytes of pending terms FTS5 keeps in memory before writing a segment (default 1 MiB). The side
 * index is one transaction, so only this bounds its segments: fewer, larger ones need less merging
 * (about a third less CPU on the benchmark than a segment per batch).
 */
const sideHashBytes = 8 << 20;

/**
 * A full-text index built apart from the index, in its own file and thread, during a cold pass:
 * tokenising the message text is most of the cost of a cold index with search, and here it runs
 * beside the episode writer instead of inside its transactions. The file has the index's whole
 * schema (so episode_fts has exactly the index's definition) but only episode_fts and the list of
 * the episodes it covers are filled; {@link adoptSideSearchIndex} copies it into the index. It is
 * a scratch file: journal in memory, no sync, deleted when adopted (a crash leaves it to be overwritten).
 */
export class SideSearchIndex {
  private readonly search: SearchRepository;
  private readonly coveredStmt: Statement;

  private constructor(private readonly db: Db) {
    this.search = new SearchRepository(db);
    db.exec('CREATE TABLE IF NOT EXISTS side_searched (episode_id INTEGER PRIMARY KEY)');
    db.exec(`INSERT INTO episode_fts (episode_fts, rank) VALUES ('hashsize', ${sideHashBytes})`);
    this.coveredStmt = db.prepare('INSERT OR IGNORE INTO side_searched (episode_id) VALUES (?)');
    db.exec('BEGIN');
  }

  /** Creates an empty side index at `path` (replacing what is there), in one open transaction until {@link finish}. */
  static create(path: string, options: OpenOptions = {}): SideSearchIndex {
    removeDatabaseFiles(path);
    const db = openDatabase(path, options);
    // Out of WAL, so that pages spill to the file itself; not OFF, which defensive mode refuses.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -8192'); // written once, in order: a small cache does
    return new SideSearchIndex(db);
  }

  /** Adds one batch's search documents, `slots` saying which is whose. */
  add(slots: readonly TextSlot[], texts: PackedTexts): void {
    this.search.insertSlots(slots, texts);
    for (const [episodeId] of slots) this.coveredStmt.run(episodeId);
  }

  /** Commits and closes the side index, ready for {@link adoptSideSearchIndex}. */
  finish(): void {
    this.db.exec('COMMIT');
    this.db.close();
  }

  /** Closes the side index without committing (it is then of no use). */
  close(): void {
    this.db.close();
  }
}

/**
 * Copies the side index at `sidePath` into the index at `indexPath` and marks its episodes
 * searchable, in one transaction; returns how many episodes became searchable. Only into an index
 * whose full-text index is empty (a cold pass); otherwise nothing is copied and 0 is returned
 * (the episodes then go through the search stage). Runs on its own connection: FTS5 caches its
 * structure per connection and notices another connection's change, not one made beneath it on
 * the same connection. Needs a driver that can lift defensive mode (better-sqlite3); 0 otherwise.
 * The side file is deleted afterwards.
 */
export function adoptSideSearchIndex(indexPath: string, sidePath: string, options: OpenOptions = {}): number {
  const db = openDatabase(indexPath, options);
  try {
    if (!db.unsafeMode) return 0;
    db.pragma('cache_size = -4096'); // a bulk copy: a big cache would only add to the pass's peak memory
    db.prepare('ATTACH DATABASE ? AS side').run(sidePath);
    db.unsafeMode(true);
    try {
      return db.transaction(() => copyShadowTables(db))();
    } finally {
      db.unsafeMode(false);
      db.exec('DETACH DATABASE side');
    }
  } finally {
    db.close();
    removeDatabaseFiles(sidePath);
  }
}

function copyShadowTables(db: Db): number {
  if (!new SearchRepository(db).isEmpty()) return 0;
  for (const table of shadowTables) {
    db.exec(`DELETE FROM main.${table}`);
    db.exec(`INSERT INTO main.${table} SELECT * FROM side.${table}`);
  }
  // The ids only: the episode rows stay as they are (migration 0022).
  const marked = db
    .prepare('DELETE FROM episode_unsearched WHERE episode_id IN (SELECT episode_id FROM side.side_searched)')
    .run();
  return marked.changes;
}

/** Deletes a database file and its WAL and shared-memory files, if any. */
export function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}
