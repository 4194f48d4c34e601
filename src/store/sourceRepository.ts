import { type FileProgressState, type RunRecord, type StoredFileState, type TraceIssue } from '../core/indexing';
import type { Db, Statement } from './database';
import type { RunTotals } from './runTotals';

/** The importer's identity, stored with every source so a later build can tell what wrote a row. */
export const importerVersion = 'credit-lens-ingest/1';

/** Runs, sources (trace files and their read state) and parse errors. */
export class SourceRepository {
  private readonly upsertRunStmt: Statement<{ runId: number }>;
  private readonly stateStmt: Statement<StoredFileState>;
  private readonly insertSourceStmt: Statement;
  private readonly updateStateStmt: Statement;
  private readonly deleteSearchStmt: Statement;
  private readonly deleteEpisodesStmt: Statement;
  private readonly deleteErrorsStmt: Statement;
  private readonly insertErrorStmt: Statement;
  private readonly urisStmt: Statement<{ sourceId: number; uri: string }>;
  private readonly deleteSourceStmt: Statement;
  private readonly addRepeatStmt: Statement;
  private readonly addRepeatsStmt: Statement;
  private readonly clearRepeatsStmt: Statement;
  private readonly rereadRepeatersStmt: Statement;
  private readonly deleteRepeatsStmt: Statement;
  private readonly rowHashesStmt: Statement<{ rowHashesJson: string | null }>;
  private readonly setRowHashesStmt: Statement;
  private readonly previousSourcesStmt: Statement<{ sourceId: number; rowHashesJson: string | null }>;

  constructor(
    private readonly db: Db,
    private readonly totals: RunTotals,
  ) {
    this.upsertRunStmt = db.prepare(`
      INSERT INTO run (root, name, mechanism, framework, algorithm, format_version, evaluator_json, config_json, layout, layout_note)
      VALUES (@root, @name, @mechanism, @framework, @algorithm, @format_version, @evaluator_json, @config_json, @layout, @layout_note)
      ON CONFLICT (root) DO UPDATE SET name = excluded.name, mechanism = excluded.mechanism, layout = excluded.layout, layout_note = excluded.layout_note,
        framework = excluded.framework, algorithm = excluded.algorithm, format_version = excluded.format_version,
        evaluator_json = excluded.evaluator_json, config_json = excluded.config_json
      RETURNING run_id AS runId`);
    this.stateStmt = db.prepare(
      `SELECT source_id AS sourceId, run_id AS runId, format, size, mtime_ms AS mtimeMs, indexed_offset AS indexedOffset, lines,
        head_hash AS headHash FROM source WHERE uri = ?`,
    );
    this.insertSourceStmt = db.prepare(`
      INSERT INTO source (run_id, uri, format, size, mtime_ms, indexed_offset, lines, head_hash, imported_at, importer_version)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.updateStateStmt = db.prepare(`
      UPDATE source SET run_id = ?, format = ?, size = ?, mtime_ms = ?, indexed_offset = ?, lines = ?, head_hash = ?, imported_at = ?
      WHERE source_id = ?`);
    this.addRepeatsStmt = db.prepare('UPDATE source SET repeats = repeats + ? WHERE source_id = ?');
    this.clearRepeatsStmt = db.prepare('UPDATE source SET repeats = 0 WHERE source_id = ?');
    this.addRepeatStmt = db.prepare('INSERT OR IGNORE INTO source_repeat (source_id, first_source_id) VALUES (?, ?)');
    // mtime -1 never matches a file's, so the sources are read again from the start.
    this.rereadRepeatersStmt = db.prepare(`
      UPDATE source SET mtime_ms = -1 WHERE source_id IN (SELECT source_id FROM source_repeat WHERE first_source_id = ?) AND source_id != ?`);
    this.deleteRepeatsStmt = db.prepare('DELETE FROM source_repeat WHERE source_id = ? OR first_source_id = ?');
    this.rowHashesStmt = db.prepare('SELECT row_hashes_json AS rowHashesJson FROM source WHERE source_id = ?');
    this.setRowHashesStmt = db.prepare('UPDATE source SET row_hashes_json = ? WHERE source_id = ?');
    this.previousSourcesStmt = db.prepare(`
      SELECT source_id AS sourceId, row_hashes_json AS rowHashesJson FROM source
      WHERE run_id = @run AND format = @format AND uri < @uri AND substr(uri, 1, length(@folder)) = @folder AND instr(substr(uri, length(@folder) + 1), '/') = 0
      ORDER BY uri DESC LIMIT 1`);
    this.deleteSearchStmt = db.prepare(`
      DELETE FROM episode_fts WHERE rowid IN (SELECT e.episode_id FROM episode e WHERE e.source_id = ?
        AND NOT EXISTS (SELECT 1 FROM episode_unsearched u WHERE u.episode_id = e.episode_id))`);
    this.deleteEpisodesStmt = db.prepare('DELETE FROM episode WHERE source_id = ?');
    this.deleteErrorsStmt = db.prepare('DELETE FROM parse_error WHERE source_id = ?');
    this.insertErrorStmt = db.prepare(
      'INSERT INTO parse_error (source_id, line, byte_offset, reason, excerpt) VALUES (?, ?, ?, ?, ?)',
    );
    this.urisStmt = db.prepare('SELECT source_id AS sourceId, uri FROM source');
    this.deleteSourceStmt = db.prepare('DELETE FROM source WHERE source_id = ?');
  }

  upsertRun(run: RunRecord): number {
    const m = run.manifest;
    const row = this.upsertRunStmt.get({
      root: run.root,
      name: run.name,
      mechanism: m?.mechanism ?? null,
      framework: m?.framework ?? null,
      algorithm: m?.algorithm ?? null,
      format_version: m?.version ?? null,
      evaluator_json: m?.evaluator ? JSON.stringify(m.evaluator) : null,
      config_json: m ? JSON.stringify(m) : null,
      layout: run.layout ?? null,
      layout_note: run.layoutNote ?? null,
    });
    if (!row) throw new Error(`could not register run "${run.root}"`);
    return row.runId;
  }

  fileState(uri: string): StoredFileState | undefined {
    return this.stateStmt.get(uri);
  }

  /** Creates the source, or deletes everything read from it, in one transaction. */
  resetSource(uri: string, runId: number, format: string, state: FileProgressState): number {
    return this.db.transaction(() => {
      const existing = this.stateStmt.get(uri);
      if (!existing) {
        const s = state;
        return Number(
          this.insertSourceStmt.run(
            runId,
            uri,
            format,
            s.size,
            s.mtimeMs,
            s.indexedOffset,
            s.lines,
            s.headHash,
            now(),
            importerVersion,
          ).lastInsertRowid,
        );
      }
      this.clearSource(existing.sourceId);
      this.updateState(existing.sourceId, runId, format, state);
      return existing.sourceId;
    })();
  }

  /** Must run inside the caller's transaction. */
  updateState(sourceId: number, runId: number, format: string, s: FileProgressState): void {
    this.updateStateStmt.run(runId, format, s.size, s.mtimeMs, s.indexedOffset, s.lines, s.headHash, now(), sourceId);
  }

  /** Adds to the count of rows `sourceId` skipped as repeats. Must run inside the caller's transaction. */
  countRepeats(sourceId: number, repeats: number): void {
    if (repeats > 0) this.addRepeatsStmt.run(repeats, sourceId);
  }

  /** Records that `sourceId` skipped a repeat of a row of `firstSourceId`. Must run inside the caller's transaction. */
  addRepeat(sourceId: number, firstSourceId: number): void {
    if (firstSourceId !== sourceId) this.addRepeatStmt.run(sourceId, firstSourceId);
  }

  /** The content hashes of the rows read so far from a source (rolling-buffer importers); [] when none. */
  rowHashes(sourceId: number): string[] {
    return parseHashes(this.rowHashesStmt.get(sourceId)?.rowHashesJson ?? null);
  }

  /** Must run inside the caller's transaction. */
  setRowHashes(sourceId: number, hashes: readonly string[]): void {
    this.setRowHashesStmt.run(JSON.stringify(hashes), sourceId);
  }

  /**
   * The source just before `uri` in path order in the same folder, run and format (the previous
   * `completions_{step:05d}.parquet`), with its row hashes; undefined when there is none.
   */
  previousInFolder(runId: number, format: string, uri: string): { sourceId: number; hashes: string[] } | undefined {
    const row = this.previousSourcesStmt.get({ run: runId, format, uri, folder: folderOf(uri) });
    if (!row) return undefined;
    return { sourceId: row.sourceId, hashes: parseHashes(row.rowHashesJson) };
  }

  /** Must run inside the caller's transaction. */
  insertIssues(sourceId: number, issues: readonly TraceIssue[]): void {
    for (const issue of issues)
      this.insertErrorStmt.run(sourceId, issue.line, issue.offset, issue.reason, issue.excerpt ?? null);
  }

  writeIssues(sourceId: number, issues: readonly TraceIssue[]): void {
    this.db.transaction(() => this.insertIssues(sourceId, issues))();
  }

  removeSourcesExcept(uris: ReadonlySet<string>): number {
    const gone = this.urisStmt.all().filter((row) => !uris.has(row.uri));
    this.db.transaction(() => {
      for (const row of gone) {
        this.clearSource(row.sourceId);
        this.deleteSourceStmt.run(row.sourceId);
      }
    })();
    return gone.length;
  }

  /**
   * Deletes what was read from a source. Sources that skipped a repeat of one of its episodes are
   * marked to be read again (their copy becomes the first).
   */
  private clearSource(sourceId: number): void {
    this.rereadRepeatersStmt.run(sourceId, sourceId);
    this.deleteRepeatsStmt.run(sourceId, sourceId);
    this.deleteSearchStmt.run(sourceId);
    this.totals.subtractSource(sourceId);
    this.deleteEpisodesStmt.run(sourceId);
    this.deleteErrorsStmt.run(sourceId);
    this.clearRepeatsStmt.run(sourceId);
    this.setRowHashesStmt.run(null, sourceId);
  }
}

function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}

function parseHashes(json: string | null): string[] {
  if (json === null) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((h): h is string => typeof h === 'string') : [];
  } catch {
    return [];
  }
}

function now(): string {
  return new Date().toISOString();
}
