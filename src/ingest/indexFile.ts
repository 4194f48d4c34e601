import type { AgentDecl } from '../core/episode';
import type { IndexSink } from '../core/indexing';
import type { IndexTally } from '../core/indexProgress';
import type { BatchProducer } from './batchProducer';
import { headBytes, headHash, planFile } from './fileChange';
import type { ReadPosition } from './jsonlReader';
import { canonicalFormat, type ParsedBatch } from './parseLines';
import type { ScannedFile } from './scanRunFolder';

/** Stored as the mtime of a file whose pass was interrupted, so it never looks up to date. */
const incompleteMtime = -1;

export interface FileContext {
  readonly tally: IndexTally;
  readonly isCancelled: () => boolean;
  readonly report: () => void;
  readonly batchSize: number;
  readonly producer: BatchProducer;
}

export interface RunTarget {
  readonly runId: number;
  readonly roster: readonly AgentDecl[];
}

/** Indexes what is new in one file (see {@link planFile}), in batches committed with the file's offset. */
export async function indexFile(file: ScannedFile, run: RunTarget, sink: IndexSink, ctx: FileContext): Promise<void> {
  const stored = sink.fileState(file.uri);
  const plan = planFile(file.path, stored, file.size, file.mtimeMs);
  if (plan.kind === 'unchanged') {
    ctx.tally.filesUnchanged++;
    ctx.tally.bytesDone += file.size;
    return;
  }
  const resume = plan.kind === 'append' && stored !== undefined && stored.runId === run.runId;
  const empty = { size: 0, mtimeMs: 0, indexedOffset: 0, lines: 0, headHash: '' };
  const sourceId = resume ? stored.sourceId : sink.resetSource(file.uri, run.runId, canonicalFormat, empty);
  const start: ReadPosition = resume ? { offset: plan.fromOffset, line: plan.fromLine } : { offset: 0, line: 0 };
  if (resume) ctx.tally.filesAppended++;
  else ctx.tally.filesReindexed++;
  ctx.tally.bytesDone += start.offset;
  const writer = batchWriter(file, run, sink, ctx, sourceId);
  await ctx.producer.parse({ path: file.path, uri: file.uri, start, roster: run.roster, batchSize: ctx.batchSize }, writer);
}

/** Commits each parsed batch together with the file's new state (offset, lines, head hash). */
function batchWriter(file: ScannedFile, run: RunTarget, sink: IndexSink, ctx: FileContext, sourceId: number): (batch: ParsedBatch) => void {
  let head: string | undefined;
  return (batch) => {
    const { end } = batch;
    if (head === undefined || end.offset < headBytes) head = headHash(file.path, end.offset);
    const state = { size: Math.max(file.size, end.offset), mtimeMs: batch.final ? file.mtimeMs : incompleteMtime, indexedOffset: end.offset, lines: end.line, headHash: head };
    const { duplicates } = sink.writeBatch({ uri: file.uri, format: canonicalFormat, sourceId, runId: run.runId, episodes: batch.episodes, issues: batch.issues, state });
    ctx.tally.episodesAdded += batch.episodes.length - duplicates.length;
    ctx.tally.issues += batch.issues.length + duplicates.length;
    ctx.tally.linesRead += batch.lines;
    ctx.tally.bytesRead += batch.bytes;
    ctx.tally.bytesDone += batch.bytes;
    ctx.report();
  };
}
