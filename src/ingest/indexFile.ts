import type { AgentDecl } from '../core/episode';
import type { EpisodeRecord, IndexSink, TraceIssue } from '../core/indexing';
import type { IndexTally } from '../core/indexProgress';
import { decodeEpisode } from './canonical/decodeEpisode';
import { headBytes, headHash, planFile } from './fileChange';
import { readJsonlLines, type JsonlLine, type ReadPosition } from './jsonlReader';
import type { ScannedFile } from './scanRunFolder';

/** The canonical format's identifier in `source.format`. */
export const canonicalFormat = 'credit_lens_jsonl';
export const excerptLength = 120;
/** A batch is also flushed once its lines reach this many bytes, to bound memory. */
const maxBatchBytes = 16 << 20;
/** Stored as the mtime of a file whose pass was interrupted. */
const incompleteMtime = -1;

export interface FileContext {
  readonly tally: IndexTally;
  readonly isCancelled: () => boolean;
  readonly report: () => void;
  readonly batchSize: number;
}

export interface RunTarget {
  readonly runId: number;
  readonly roster: readonly AgentDecl[];
}

/** Indexes what is new in one file (see {@link planFile}), in batches committed with the file's offset. */
export function indexFile(file: ScannedFile, run: RunTarget, sink: IndexSink, ctx: FileContext): void {
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
  readFileInBatches(file, run, sink, ctx, { sourceId, start });
}

function readFileInBatches(file: ScannedFile, run: RunTarget, sink: IndexSink, ctx: FileContext, at: { sourceId: number; start: ReadPosition }): void {
  let episodes: EpisodeRecord[] = [];
  let issues: TraceIssue[] = [];
  let batchBytes = 0;
  let position = at.start;
  let head: string | undefined;
  const flush = (complete: boolean): void => {
    if (head === undefined || position.offset < headBytes) head = headHash(file.path, position.offset);
    // Until the file is read to its end, store an mtime that never matches, so that an interrupted
    // pass is never mistaken for an up-to-date file by the next one.
    const mtimeMs = complete ? file.mtimeMs : incompleteMtime;
    const state = { size: Math.max(file.size, position.offset), mtimeMs, indexedOffset: position.offset, lines: position.line, headHash: head };
    const { duplicates } = sink.writeBatch({ uri: file.uri, format: canonicalFormat, sourceId: at.sourceId, runId: run.runId, episodes, issues, state });
    ctx.tally.episodesAdded += episodes.length - duplicates.length;
    ctx.tally.issues += issues.length + duplicates.length;
    episodes = [];
    issues = [];
    batchBytes = 0;
    ctx.report();
  };
  const end = readJsonlLines(file.path, at.start, (line) => {
    if (ctx.isCancelled()) return false;
    const outcome = decodeLine(line, file.uri, run.roster);
    if (outcome.kind === 'episode') episodes.push(outcome.record);
    else if (outcome.kind === 'issue') issues.push(outcome.issue);
    position = { offset: line.offset + line.length + 1, line: line.line };
    ctx.tally.linesRead++;
    ctx.tally.bytesRead += line.length + 1;
    ctx.tally.bytesDone += line.length + 1;
    batchBytes += line.length;
    if (episodes.length >= ctx.batchSize || batchBytes >= maxBatchBytes) flush(false);
    return true;
  });
  position = end;
  flush(!ctx.isCancelled());
}

type LineOutcome =
  | { readonly kind: 'episode'; readonly record: EpisodeRecord }
  | { readonly kind: 'issue'; readonly issue: TraceIssue }
  | { readonly kind: 'blank' };

/** Parses and decodes one line; a bad line becomes an issue naming the file, line and reason. */
export function decodeLine(line: JsonlLine, uri: string, roster: readonly AgentDecl[]): LineOutcome {
  if (line.text.trim() === '') return { kind: 'blank' };
  const issue = (reason: string): LineOutcome => ({
    kind: 'issue',
    issue: { uri, line: line.line, offset: line.offset, reason, excerpt: line.text.slice(0, excerptLength) },
  });
  let json: unknown;
  try {
    json = JSON.parse(line.text);
  } catch (error) {
    return issue(`invalid JSON: ${(error as Error).message}`);
  }
  const decoded = decodeEpisode(json, roster);
  if (!decoded.ok) return issue(`invalid episode: ${decoded.error}`);
  return { kind: 'episode', record: { episode: decoded.value, line: line.line, offset: line.offset, length: line.length } };
}
