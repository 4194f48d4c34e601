import { rollingOverlap } from '../core/rollingOverlap';
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
import { InsertedAggregates } from './insertedAggregates';
import { RunTotals } from './runTotals';
import { SearchRepository, type TextSlot } from './searchRepository';
import { SourceRepository } from './sourceRepository';
import { SummaryRepository } from './summaryRepository';

/** Told, after a batch with {@link EpisodeBatch.textSeq} is committed, where its episodes landed. */
export type DivertedTexts = (textSeq: number, slots: readonly TextSlot[]) => void;

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
  private readonly totals: RunTotals;
  private readonly aggregates: InsertedAggregates;
  private readonly firstSeenStmt: Statement<{ uri: string; line: number }>;
  private onDiverted: DivertedTexts | undefined;

  constructor(readonly db: Db) {
    this.totals = new RunTotals(db);
    this.aggregates = new InsertedAggregates(db);
    this.sources = new SourceRepository(db, this.totals);
    this.search = new SearchRepository(db);
    this.summary = new SummaryRepository(db);
    this.agents = new AgentIds(db);
    this.episodes = new EpisodeWriter(db, this.agents, this.totals);
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

  /** Sends the slots of batches whose texts went to a side full-text index to `listener` (undefined: stop). */
  divertSearch(listener: DivertedTexts | undefined): void {
    this.onDiverted = listener;
  }

  /** Inserts a batch and advances the file's state in one transaction; duplicates become issues, repeats are counted. */
  writeBatch(batch: EpisodeBatch): { duplicates: readonly TraceIssue[]; repeats: number } {
    let written: BatchRows;
    try {
      written = this.db.transaction(() => this.writeBatchRows(batch))();
    } catch (error) {
      this.agents.clear(); // agents created in the rolled-back transaction no longer exist
      this.episodes.discard();
      this.totals.discard();
      this.aggregates.discard();
      throw error;
    }
    if (batch.textSeq !== undefined) this.onDiverted?.(batch.textSeq, written.slots);
    return { duplicates: written.duplicates, repeats: written.repeats };
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

  private writeBatchRows(batch: EpisodeBatch): BatchRows {
    const duplicates: TraceIssue[] = [];
    const skip = this.rollingRepeats(batch);
    const texts = batch.texts;
    const slots: TextSlot[] = [];
    for (const [i, record] of batch.episodes.entries()) {
      if (i < skip) continue;
      const episodeId = this.episodes.insert(batch.runId, batch.sourceId, record, texts !== undefined);
      if (episodeId !== undefined) {
        this.aggregates.add(episodeId);
        slots.push([episodeId, i]); // texts[i] is its search document
        continue;
      }
      const first = this.firstSeenStmt.get(batch.runId, record.id);
      const where = first ? ` (first seen at ${first.uri}:${first.line})` : '';
      const what = batch.format === canonicalSourceFormat ? 'line' : 'record';
      duplicates.push({
        uri: batch.uri,
        line: record.line,
        offset: record.offset,
        reason: `duplicate episode id "${record.id}"${where}; ${what} skipped`,
      });
    }
    // After the episodes: FTS5 inserts in one run are cheaper than interleaved with the other tables.
    if (texts) this.search.insertSlots(slots, texts);
    this.episodes.flush();
    this.totals.flush();
    this.aggregates.flush();
    this.sources.countRepeats(batch.sourceId, skip);
    this.sources.insertIssues(batch.sourceId, [...batch.issues, ...duplicates]);
    this.sources.updateState(batch.sourceId, batch.runId, batch.format, batch.state);
    return { duplicates, repeats: skip, slots };
  }

  /**
   * How many leading episodes of the batch repeat rows of the previous file (rolling-buffer
   * importers, whose episodes carry a content hash): the rows of this source so far are aligned
   * with the previous file in the folder ({@link rollingOverlap}); the batch's rows inside the
   * overlap are repeats, recorded against that file. Every row's hash is kept for the next file.
   */
  private rollingRepeats(batch: EpisodeBatch): number {
    const hashes = batch.episodes.map((e) => e.contentHash);
    if (hashes.length === 0 || hashes.some((h) => h === undefined)) return 0;
    const before = this.sources.rowHashes(batch.sourceId);
    const rows = [...before, ...(hashes as string[])];
    this.sources.setRowHashes(batch.sourceId, rows);
    const previous = this.sources.previousInFolder(batch.runId, batch.format, batch.uri);
    if (!previous) return 0;
    const skip = Math.max(0, Math.min(rollingOverlap(previous.hashes, rows), rows.length) - before.length);
    if (skip > 0) this.sources.addRepeat(batch.sourceId, previous.sourceId);
    return skip;
  }
}

/** What writing one batch did: its duplicates as issues, the repeats it skipped, where its episodes landed. */
interface BatchRows {
  readonly duplicates: readonly TraceIssue[];
  readonly repeats: number;
  readonly slots: readonly TextSlot[];
}
