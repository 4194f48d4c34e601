import type { RewardWeights } from '../core/runManifest';
import type { RunSplits } from '../core/split';
import { basename } from 'node:path';
import type { AgentDecl } from '../core/episode';
import type { IndexSink, StoredFileState } from '../core/indexing';
import type { IndexTally } from '../core/indexProgress';
import { headBytes, headHash, planFile } from './fileChange';
import { containerOf, sampleRecords } from './importers/containers/container';
import { detectFormat, forcedFormat, type DetectedFormat } from './importers/detect';
import { mappingsFor, type LoadedMapping } from './importers/mappingFiles';
import { findImporter, importerList } from './importers/registry';
import type { ContainerKind, FormatMapper } from './importers/types';
import type { ReadPosition } from './jsonlReader';
import type { ParsedBatch, ParseRequest } from './parseLines';
import type { ScannedFile } from './scanRunFolder';
import { looksLikeSideRecords } from './sideFiles';

/** Stored as the mtime of a file whose pass was interrupted, so it never looks up to date. */
export const incompleteMtime = -1;
/** source.format of a file no importer recognised (its issue says which were tried). */
export const unknownFormat = 'unknown';
/** source.format of a side file (config, metrics, checkpoint): listed as an other file, no episodes, no errors. */
export const otherFileFormat = 'other_file';

export interface FileContext {
  readonly tally: IndexTally;
  readonly report: () => void;
  readonly batchSize: number;
  /** The registered importers besides the canonical one (formatMappers, or a test's). */
  readonly mappers: readonly FormatMapper[];
  /** The folder's usable mapping files; each applies to the files in its folder and below. */
  readonly mappings: readonly LoadedMapping[];
  /** Hand each batch's message text to the writer, so its episodes are searchable when written. */
  readonly search?: boolean;
}

/** The importers a file is detected among: canonical, the mappings over its folder (nearest first), the registered ones. */
export function importersFor(uri: string, ctx: Pick<FileContext, 'mappers' | 'mappings'>): readonly FormatMapper[] {
  const mapped = mappingsFor(uri, ctx.mappings).map((m) => m.mapper);
  return importerList(mapped.length > 0 ? [...mapped, ...ctx.mappers] : ctx.mappers);
}

export interface RunTarget {
  readonly runId: number;
  readonly roster: readonly AgentDecl[];
  /** run.json `splits`. */
  readonly splits?: RunSplits;
  /** run.json `rewardWeights`. */
  readonly rewardWeights?: RewardWeights;
  /** run.json `mechanism`. */
  readonly mechanism?: string;
  /** The importer forced for the run's files (`--format`, or run.json's `traceFormat`). */
  readonly forced?: FormatMapper;
}

/** A file with lines to read in this pass, and the writer of its batches. */
export interface FileWork {
  readonly request: ParseRequest;
  readonly write: (batch: ParsedBatch) => void;
}

/** A file to import whole (not JSONL, or an importer that needs every record at once). */
export interface WholeFileWork {
  readonly file: ScannedFile;
  readonly run: RunTarget;
  readonly detected: DetectedFormat;
}

export type PlannedFile =
  { readonly kind: 'lines'; readonly work: FileWork } | { readonly kind: 'whole'; readonly work: WholeFileWork };

/** True when the importer reads the file line by line, so appended lines can be read alone. */
export function readsLines(mapper: FormatMapper, container: ContainerKind): boolean {
  return container === 'jsonl' && mapper.wholeFile !== true;
}

/**
 * Decides what to do with one file. A file keeps the importer it was read with while it only
 * grows (JSONL) or does not change (other containers); a new, rewritten or changed file, or one no
 * importer recognised before, is detected again by content (or takes the run's forced format).
 * Line-read files follow {@link planFile}: unchanged, appended (read from the stored offset), or
 * emptied and read from the start. Other files are imported whole when their size or mtime
 * changed. A file no importer recognises (or that the forced format cannot read) is an other file
 * when its records look like config or metrics (sideFiles.ts), else it gets one issue (`file:0`)
 * and is skipped.
 */
export async function planFileImport(
  file: ScannedFile,
  run: RunTarget,
  sink: IndexSink,
  ctx: FileContext,
): Promise<PlannedFile | undefined> {
  const stored = sink.fileState(file.uri);
  const container = containerOf(file.uri);
  if (container === undefined) return undefined;
  const importers = importersFor(file.uri, ctx);
  const kept = keptImporter(stored, run, container, importers);
  // A file that now belongs to another run (a run.json appeared or went) is read again for it.
  if (stored && kept && stored.runId === run.runId) {
    const plan = readsLines(kept, container)
      ? planFile(file.path, stored, file.size, file.mtimeMs)
      : wholeFilePlan(stored, file);
    if (plan.kind === 'unchanged') {
      countUnchanged(file, ctx);
      return undefined;
    }
    if (plan.kind === 'append' && stored.indexedOffset > 0) {
      ctx.tally.filesAppended++;
      return {
        kind: 'lines',
        work: lineWork(file, run, sink, ctx, kept, { offset: plan.fromOffset, line: plan.fromLine }, stored.sourceId),
      };
    }
  }
  const name = basename(file.uri);
  const detected = run.forced ? forcedFormat(name, run.forced) : await detectFormat(file.path, name, importers);
  if (!detected.ok) {
    const unchanged = stored && stored.runId === run.runId && wholeFilePlan(stored, file).kind === 'unchanged';
    if (unchanged && (stored.format === unknownFormat || stored.format === otherFileFormat)) {
      countUnchanged(file, ctx);
      if (stored.format === otherFileFormat) ctx.tally.otherFiles++;
    } else if (await hasSideContent(file.path, container)) {
      // Even under a forced format: a config-like file it cannot read (a benchmark's dataset.json) is no trace.
      recordOtherFile(file, run.runId, sink, ctx.tally);
      ctx.tally.bytesDone += file.size;
    } else recordUnrecognised(file, run, sink, ctx, detected.error);
    return undefined;
  }
  ctx.tally.filesReindexed++;
  const { mapper } = detected.value;
  if (!readsLines(mapper, container)) return { kind: 'whole', work: { file, run, detected: detected.value } };
  const sourceId = sink.resetSource(file.uri, run.runId, mapper.format, {
    size: 0,
    mtimeMs: 0,
    indexedOffset: 0,
    lines: 0,
    headHash: '',
  });
  return { kind: 'lines', work: lineWork(file, run, sink, ctx, mapper, { offset: 0, line: 0 }, sourceId) };
}

/** The importer a file was read with, when it may be kept without detecting again. */
function keptImporter(
  stored: StoredFileState | undefined,
  run: RunTarget,
  container: ContainerKind,
  importers: readonly FormatMapper[],
): FormatMapper | undefined {
  if (!stored || stored.format === unknownFormat) return undefined;
  if (run.forced && run.forced.format !== stored.format) return undefined;
  const mapper = findImporter(stored.format, importers);
  return mapper?.containers.includes(container) ? mapper : undefined;
}

/** A file read whole is up to date when its size and mtime are those it had when read. */
function wholeFilePlan(stored: StoredFileState, file: ScannedFile): { kind: 'unchanged' | 'reindex' } {
  return stored.size === file.size && stored.mtimeMs === file.mtimeMs ? { kind: 'unchanged' } : { kind: 'reindex' };
}

function countUnchanged(file: ScannedFile, ctx: FileContext): void {
  ctx.tally.filesUnchanged++;
  ctx.tally.bytesDone += file.size;
}

/** Records a file no importer recognised: one issue at line 0; its old episodes (if any) are gone. */
function recordUnrecognised(
  file: ScannedFile,
  run: RunTarget,
  sink: IndexSink,
  ctx: FileContext,
  reason: string,
): void {
  const sourceId = sink.resetSource(file.uri, run.runId, unknownFormat, {
    size: file.size,
    mtimeMs: file.mtimeMs,
    indexedOffset: 0,
    lines: 0,
    headHash: '',
  });
  sink.writeIssues(sourceId, [{ uri: file.uri, line: 0, offset: 0, reason }]);
  ctx.tally.filesReindexed++;
  ctx.tally.issues++;
  ctx.tally.bytesDone += file.size;
}

/** True when the file's first records look like config or metrics rather than episodes (sideFiles.ts). */
async function hasSideContent(path: string, container: ContainerKind): Promise<boolean> {
  if (container !== 'jsonl' && container !== 'json') return false;
  try {
    return looksLikeSideRecords((await sampleRecords(container, path, { json: 'root' })).records);
  } catch {
    return false;
  }
}

/**
 * Records a side file as a source of format {@link otherFileFormat}: no episodes, no issues; read
 * again only when its size or mtime changes (or it moves to another run).
 */
export function recordOtherFile(file: ScannedFile, runId: number, sink: IndexSink, tally: IndexTally): void {
  const stored = sink.fileState(file.uri);
  tally.otherFiles++;
  if (
    stored?.format === otherFileFormat &&
    stored.runId === runId &&
    stored.size === file.size &&
    stored.mtimeMs === file.mtimeMs
  )
    return;
  sink.resetSource(file.uri, runId, otherFileFormat, {
    size: file.size,
    mtimeMs: file.mtimeMs,
    indexedOffset: 0,
    lines: 0,
    headHash: '',
  });
}

function lineWork(
  file: ScannedFile,
  run: RunTarget,
  sink: IndexSink,
  ctx: FileContext,
  mapper: FormatMapper,
  start: ReadPosition,
  sourceId: number,
): FileWork {
  ctx.tally.bytesDone += start.offset;
  const mapping = ctx.mappings.find((m) => m.mapper === mapper);
  return {
    request: {
      path: file.path,
      uri: file.uri,
      format: mapper.format,
      start,
      roster: run.roster,
      ...(run.splits ? { splits: run.splits } : {}),
      ...(run.rewardWeights ? { rewardWeights: run.rewardWeights } : {}),
      ...(run.mechanism ? { mechanism: run.mechanism } : {}),
      batchSize: ctx.batchSize,
      ...(mapping ? { mappingSpec: mapping.spec } : {}),
      ...(ctx.search ? { search: true } : {}),
    },
    write: batchWriter(file, run.runId, sink, ctx, { sourceId, format: mapper.format }),
  };
}

/** Commits each parsed batch together with the file's new state (offset, lines, head hash). */
function batchWriter(
  file: ScannedFile,
  runId: number,
  sink: IndexSink,
  ctx: FileContext,
  source: { sourceId: number; format: string },
): (batch: ParsedBatch) => void {
  let head: string | undefined;
  let hashedBytes = 0;
  return (batch) => {
    const { end } = batch;
    // Until the hash covers headBytes, every batch extends it (planFile hashes min(headBytes, offset)).
    if (head === undefined || hashedBytes < headBytes) {
      head = headHash(file.path, end.offset);
      hashedBytes = Math.min(end.offset, headBytes);
    }
    const state = {
      size: Math.max(file.size, end.offset),
      mtimeMs: batch.final ? file.mtimeMs : incompleteMtime,
      indexedOffset: end.offset,
      lines: end.line,
      headHash: head,
    };
    const { duplicates, repeats = 0 } = sink.writeBatch({
      uri: file.uri,
      format: source.format,
      sourceId: source.sourceId,
      runId,
      episodes: batch.episodes,
      issues: batch.issues,
      state,
      ...(batch.texts ? { texts: batch.texts } : {}),
      ...(batch.textSeq !== undefined ? { textSeq: batch.textSeq } : {}),
    });
    const added = batch.episodes.length - duplicates.length - repeats;
    ctx.tally.episodesAdded += added;
    if (batch.texts) ctx.tally.searchEpisodes += added;
    ctx.tally.repeatsSkipped += repeats;
    ctx.tally.issues += batch.issues.length + duplicates.length;
    ctx.tally.linesRead += batch.lines;
    ctx.tally.bytesRead += batch.bytes;
    ctx.tally.bytesDone += batch.bytes;
    if (batch.final) ctx.tally.filesDone++;
    ctx.report();
  };
}
