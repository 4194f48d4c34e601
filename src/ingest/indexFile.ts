import type { AgentDecl } from '../core/episode';
import type { IndexSink } from '../core/indexing';
import type { IndexTally } from '../core/indexProgress';
import { headBytes, headHash, planFile } from './fileChange';
import type { ReadPosition } from './jsonlReader';
import { canonicalFormat, type ParsedBatch, type ParseRequest } from './parseLines';
import type { ScannedFile } from './scanRunFolder';

/** Stored as the mtime of a file whose pass was interrupted, so it never looks up to date. */
const incompleteMtime = -1;

export interface FileContext {
  readonly tally: IndexTally;
  readonly report: () => void;
  readonly batchSize: number;
}

export interface RunTarget {
  readonly runId: number;
  readonly roster: readonly AgentDecl[];
}

/** A file with lines to read in this pass, and the writer of its batches. */
export interface FileWork {
  readonly request: ParseRequest;
  readonly write: (batch: ParsedBatch) => void;
}

/**
 * Decides what to read of one file (see {@link planFile}). An unchanged file yields nothing; a new,
 * truncated or rewritten one is emptied in the index and read from the start; a grown one is read
 * from its stored offset. The returned writer commits each batch with the file's new state.
 */
export function planFileWork(file: ScannedFile, run: RunTarget, sink: IndexSink, ctx: FileContext): FileWork | undefined {
  const stored = sink.fileState(file.uri);
  const plan = planFile(file.path, stored, file.size, file.mtimeMs);
  if (plan.kind === 'unchanged') {
    ctx.tally.filesUnchanged++;
    ctx.tally.bytesDone += file.size;
    return undefined;
  }
  const resume = plan.kind === 'append' && stored !== undefined && stored.runId === run.runId;
  const empty = { size: 0, mtimeMs: 0, indexedOffset: 0, lines: 0, headHash: '' };
  const sourceId = resume ? stored.sourceId : sink.resetSource(file.uri, run.runId, canonicalFormat, empty);
  const start: ReadPosition = resume ? { offset: plan.fromOffset, line: plan.fromLine } : { offset: 0, line: 0 };
  if (resume) ctx.tally.filesAppended++;
  else ctx.tally.filesReindexed++;
  ctx.tally.bytesDone += start.offset;
  return {
    request: { path: file.path, uri: file.uri, start, roster: run.roster, batchSize: ctx.batchSize },
    write: batchWriter(file, run.runId, sink, ctx, sourceId),
  };
}

/** Commits each parsed batch together with the file's new state (offset, lines, head hash). */
function batchWriter(file: ScannedFile, runId: number, sink: IndexSink, ctx: FileContext, sourceId: number): (batch: ParsedBatch) => void {
  let head: string | undefined;
  return (batch) => {
    const { end } = batch;
    if (head === undefined || end.offset < headBytes) head = headHash(file.path, end.offset);
    const state = { size: Math.max(file.size, end.offset), mtimeMs: batch.final ? file.mtimeMs : incompleteMtime, indexedOffset: end.offset, lines: end.line, headHash: head };
    const { duplicates } = sink.writeBatch({ uri: file.uri, format: canonicalFormat, sourceId, runId, episodes: batch.episodes, issues: batch.issues, state });
    ctx.tally.episodesAdded += batch.episodes.length - duplicates.length;
    ctx.tally.issues += batch.issues.length + duplicates.length;
    ctx.tally.linesRead += batch.lines;
    ctx.tally.bytesRead += batch.bytes;
    ctx.tally.bytesDone += batch.bytes;
    if (batch.final) ctx.tally.filesDone++;
    ctx.report();
  };
}
