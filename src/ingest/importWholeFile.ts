import { basename } from 'node:path';
import type { CompactEpisode, IndexSink, TraceIssue } from '../core/indexing';
import { headHash } from './fileChange';
import { incompleteMtime, type FileContext, type WholeFileWork } from './indexFile';
import { selectionOf, streamRecords } from './importers/containers/container';
import { excerptOf, messageOf, type ContainerRecord } from './importers/containers/containerItem';
import { withLinkedFiles } from './importers/linkedFiles';
import { importRecord } from './importers/mapRecord';
import type { RecordContext, RecordLocator } from './importers/types';

/** Where the episodes of an importer that maps the whole file at once point: the file's start. */
export const wholeFileLocator: RecordLocator = { line: 1, offset: 0, length: 0 };

/** What one record (or, for a `wholeFile` importer, the whole file) imported to. */
interface Imported {
  readonly episodes: readonly CompactEpisode[];
  readonly issues: readonly TraceIssue[];
}

/**
 * Imports a file whole, in this thread: empties its source, streams its records through the
 * container, maps each with the detected importer (an importer with `wholeFile` gets every record
 * at once) and writes the episodes in batches. A record that cannot be read or mapped is an issue
 * at its line; the records around it are kept. The file's state is marked complete only by the last
 * batch, so a cancelled or failed import is redone by the next pass.
 */
export async function importWholeFile(
  work: WholeFileWork,
  sink: IndexSink,
  ctx: FileContext,
  isCancelled: () => boolean,
): Promise<void> {
  const { file, detected } = work;
  const { mapper, container } = detected;
  const batch = new WholeFileBatch(work, sink, ctx);
  const whole: ContainerRecord[] = [];
  let complete = true;
  try {
    batch.head = headHash(file.path, file.size);
    for await (const item of streamRecords(container, file.path, selectionOf(mapper))) {
      if (isCancelled()) {
        complete = false;
        break;
      }
      batch.countRecord();
      if (item.kind === 'issue')
        batch.add({ episodes: [], issues: [issueOf(file.uri, item.locator, item.reason, item.excerpt)] });
      else if (mapper.wholeFile) whole.push(item);
      else batch.add(importOne(work, item));
      batch.flushWhenFull();
    }
  } catch (error) {
    // The file went away or could not be read mid-way: say so; the next pass reads it again.
    complete = false;
    const reason = `cannot read the file: ${messageOf(error)}`;
    batch.add({ episodes: [], issues: [issueOf(file.uri, { line: 0, offset: 0, length: 0 }, reason, undefined)] });
  }
  if (complete && mapper.wholeFile) batch.add(importAll(work, whole));
  batch.flush(complete);
}

/** The episodes and issues not yet written, and the tally of what was. */
class WholeFileBatch {
  head = '';
  private episodes: CompactEpisode[] = [];
  private issues: TraceIssue[] = [];
  private records = 0;
  private unwritten = 0;
  private readonly sourceId: number;

  constructor(
    private readonly work: WholeFileWork,
    private readonly sink: IndexSink,
    private readonly ctx: FileContext,
  ) {
    const { file, run, detected } = work;
    const empty = { size: file.size, mtimeMs: incompleteMtime, indexedOffset: 0, lines: 0, headHash: '' };
    this.sourceId = sink.resetSource(file.uri, run.runId, detected.mapper.format, empty);
  }

  countRecord(): void {
    this.records++;
    this.unwritten++;
  }

  add(imported: Imported): void {
    this.episodes.push(...imported.episodes);
    this.issues.push(...imported.issues);
  }

  flushWhenFull(): void {
    if (this.episodes.length >= this.ctx.batchSize || this.issues.length >= this.ctx.batchSize) this.flush(false);
  }

  /** Writes the batch; `final` marks the file complete (its size, time and head). */
  flush(final: boolean): void {
    const { file, run, detected } = this.work;
    const state = {
      size: file.size,
      mtimeMs: final ? file.mtimeMs : incompleteMtime,
      indexedOffset: final ? file.size : 0,
      lines: this.records,
      headHash: this.head,
    };
    const { duplicates, repeats = 0 } = this.sink.writeBatch({
      uri: file.uri,
      format: detected.mapper.format,
      sourceId: this.sourceId,
      runId: run.runId,
      episodes: this.episodes,
      issues: this.issues,
      state,
    });
    const { tally } = this.ctx;
    tally.episodesAdded += this.episodes.length - duplicates.length - repeats;
    tally.repeatsSkipped += repeats;
    tally.issues += this.issues.length + duplicates.length;
    tally.linesRead += this.unwritten;
    if (final) {
      tally.bytesRead += file.size;
      tally.bytesDone += file.size;
      tally.filesDone++;
    }
    this.episodes = [];
    this.issues = [];
    this.unwritten = 0;
    this.ctx.report();
  }
}

/** One record mapped by the importer; an issue without an excerpt gets the record's start. */
function importOne(work: WholeFileWork, item: ContainerRecord): Imported {
  const { file, detected } = work;
  const { mapper } = detected;
  // The indexed folder (file.path is it joined with file.uri), where linked files are read from.
  const indexedFolder = file.path.slice(0, file.path.length - file.uri.length);
  const context = recordContext(work, item.index, item.locator.line, item.header);
  const imported = importRecord(mapper, item.record, withLinkedFiles(mapper, item.record, context, indexedFolder), {
    uri: file.uri,
    locator: item.locator,
    ...(item.excerpt !== undefined ? { excerpt: item.excerpt } : {}),
  });
  return {
    episodes: imported.episodes,
    issues: imported.issues.map((issue) =>
      issue.excerpt === undefined ? { ...issue, excerpt: excerptOfValue(item.record) } : issue,
    ),
  };
}

/** Every record of the file mapped at once by a `wholeFile` importer (the file's first header). */
function importAll(work: WholeFileWork, whole: readonly ContainerRecord[]): Imported {
  const records = whole.map((r) => r.record);
  const context = recordContext(work, 0, 1, whole[0]?.header);
  return importRecord(work.detected.mapper, records, context, { uri: work.file.uri, locator: wholeFileLocator });
}

function recordContext(
  work: WholeFileWork,
  index: number,
  line: number,
  header: ContainerRecord['header'],
): RecordContext {
  const { file, run } = work;
  return {
    uri: file.uri,
    fileName: basename(file.uri),
    index,
    line,
    roster: run.roster,
    ...(run.splits ? { splits: run.splits } : {}),
    ...(run.rewardWeights ? { rewardWeights: run.rewardWeights } : {}),
    ...(header ? { header } : {}),
  };
}
function issueOf(uri: string, at: RecordLocator, reason: string, excerpt: string | undefined): TraceIssue {
  return { uri, line: at.line, offset: at.offset, reason, ...(excerpt !== undefined ? { excerpt } : {}) };
}

/** The start of a record that has no raw text (a Parquet row), as JSON. */
function excerptOfValue(record: unknown): string {
  try {
    return excerptOf(
      JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)),
    );
  } catch {
    return '';
  }
}
