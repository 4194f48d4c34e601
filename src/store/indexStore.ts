import type {
  EpisodeBatch,
  FileProgressState,
  IndexSink,
  PendingSearchEpisode,
  RunRecord,
  SearchRow,
  StoredFileState,
  TraceIssue,
} from '../core/indexing';
import { AgentIds } from './agentIds';
import { openDatabase, type Db, type OpenOptions, type Statement } from './database';
import { EpisodeWriter } from './episodeWriter';
import { SearchRepository } from './searchRepository';
import { SourceRepository } from './sourceRepository';
import { SummaryRepository } from './summaryRepository';

/** source.format of canonical JSONL files (whose records are lines). */
const canonicalSourceFormat = 'credit_lens_jsonl';

/**
 * The index database of one indexed folder: the {@link IndexSink} the indexer writes to, and the
 * read side (summary, search) the CLI and the extension query.
 */
export class IndexStore implements IndexSink {
  readonly sources: SourceRepository;
  readonly search: SearchRepository;
  readonly summary: SummaryRepository;
  private readonly agents: AgentIds;
  private readonly episodes: EpisodeWriter;
  private readonly firstSeenStmt: Statement<{ uri: string; line: number; source_id: number; content_hash: string | null }>;

  constructor(readonly db: Db) {
    this.sources = new SourceRepository(db);
    this.search = new SearchRepository(db);
    this.summary = new SummaryRepository(db);
    this.agents = new AgentIds(db);
    this.episodes = new EpisodeWriter(db, this.agents);
    this.firstSeenStmt = db.prepare(`
      SELECT s.uri, e.line, e.source_id, e.content_hash FROM episode e JOIN source s ON s.source_id = e.source_id WHERE e.run_id = ? AND e.external_id = ?`);
  }

  static open(file: string, options: OpenOptions = {}): IndexStore {
    return new IndexStore(openDatabase(file, options));
  }

  upsertRun(run: RunRecord): number {
    return this.sources.upsertRun(run);
  }

  fileState(uri: string): StoredFileState | undefined {
    return this.sources.fileState(uri);
  }

  resetSource(uri: string, runId: number, format: string, state: FileProgressState): number {
    return this.sources.resetSource(uri, runId, format, state);
  }

  /** Inserts a batch and advances the file's state in one transaction; duplicates become issues, repeats are counted. */
  writeBatch(batch: EpisodeBatch): { duplicates: readonly TraceIssue[]; repeats: number } {
    try {
      return this.db.transaction(() => this.writeBatchRows(batch))();
    } catch (error) {
      this.agents.clear(); // agents created in the rolled-back transaction no longer exist
      throw error;
    }
  }

  writeIssues(sourceId: number, issues: readonly TraceIssue[]): void {
    this.sources.writeIssues(sourceId, issues);
  }

  removeSourcesExcept(uris: ReadonlySet<string>): number {
    return this.sources.removeSourcesExcept(uris);
  }

  pendingSearch(limit: number): PendingSearchEpisode[] {
    return this.search.pending(limit);
  }

  writeSearch(episodeIds: readonly number[], rows: readonly SearchRow[]): void {
    this.search.write(episodeIds, rows);
  }

  close(): void {
    this.db.close();
  }

  private writeBatchRows(batch: EpisodeBatch): { duplicates: readonly TraceIssue[]; repeats: number } {
    const duplicates: TraceIssue[] = [];
    let repeats = 0;
    for (const record of batch.episodes) {
      if (this.episodes.insert(batch.runId, batch.sourceId, record) !== undefined) continue;
      const first = this.firstSeenStmt.get(batch.runId, record.id);
      if (first && record.contentHash !== undefined && first.content_hash === record.contentHash) {
        repeats++;
        this.sources.addRepeat(batch.sourceId, first.source_id);
        continue;
      }
      const where = first ? ` (first seen at ${first.uri}:${first.line})` : '';
      const what = batch.format === canonicalSourceFormat ? 'line' : 'record';
      duplicates.push({ uri: batch.uri, line: record.line, offset: record.offset, reason: `duplicate episode id "${record.id}"${where}; ${what} skipped` });
    }
    this.sources.countRepeats(batch.sourceId, repeats);
    this.sources.insertIssues(batch.sourceId, [...batch.issues, ...duplicates]);
    this.sources.updateState(batch.sourceId, batch.runId, batch.format, batch.state);
    return { duplicates, repeats };
  }
}
