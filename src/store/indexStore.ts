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
  private readonly firstSeenStmt: Statement<{ uri: string; line: number }>;

  constructor(readonly db: Db) {
    this.sources = new SourceRepository(db);
    this.search = new SearchRepository(db);
    this.summary = new SummaryRepository(db);
    this.agents = new AgentIds(db);
    this.episodes = new EpisodeWriter(db, this.agents);
    this.firstSeenStmt = db.prepare(`
      SELECT s.uri, e.line FROM episode e JOIN source s ON s.source_id = e.source_id WHERE e.run_id = ? AND e.external_id = ?`);
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

  /** Inserts a batch and advances the file's state in one transaction; duplicates become issues. */
  writeBatch(batch: EpisodeBatch): { duplicates: readonly TraceIssue[] } {
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

  private writeBatchRows(batch: EpisodeBatch): { duplicates: readonly TraceIssue[] } {
    const duplicates: TraceIssue[] = [];
    for (const record of batch.episodes) {
      if (this.episodes.insert(batch.runId, batch.sourceId, record) !== undefined) continue;
      const first = this.firstSeenStmt.get(batch.runId, record.id);
      const where = first ? ` (first seen at ${first.uri}:${first.line})` : '';
      duplicates.push({ uri: batch.uri, line: record.line, offset: record.offset, reason: `duplicate episode id "${record.id}"${where}; line skipped` });
    }
    this.sources.insertIssues(batch.sourceId, [...batch.issues, ...duplicates]);
    this.sources.updateState(batch.sourceId, batch.runId, batch.format, batch.state);
    return { duplicates };
  }
}
