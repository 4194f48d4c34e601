import { pooledProducer } from './pooledProducer';
import type { IndexSink, TraceIssue } from '../core/indexing';
import { emptyTally, type IndexProgress, type IndexTally } from '../core/indexProgress';
import { inThreadProducer, lazyProducer, workerProducer, type BatchProducer } from './batchProducer';
import { buildSearchIndex } from './buildSearchIndex';
import { containerOf } from './importers/containers/container';
import { formatMappers } from './importers/mappers';
import { loadMapping, type LoadedMapping, type MappingProblem } from './importers/mappingFiles';
import { findImporter, importerList, unknownFormatMessage } from './importers/registry';
import type { FormatMapper } from './importers/types';
import { importWholeFile } from './importWholeFile';
import { planFileImport, recordOtherFile, type FileContext, type FileWork, type RunTarget } from './indexFile';
import type { TextRoute } from './parseWorkerProtocol';
import { onlyRuns, scanRunFolder, type ScannedFile, type ScannedRun } from './scanRunFolder';

/** source.format of a mapping file that cannot be used (the source only holds its issue). */
export const mappingSourceFormat = 'credit_lens_mapping';

/**
 * A full-text index built in another thread during a cold pass (engine/indexWorkerSearch.ts): the
 * parse worker sends it each batch's message texts through `route`, the writer writes the episodes
 * unsearchable, and `finish`, after the last batch, waits for it and copies it into the index.
 */
export interface SideSearch {
  readonly route: TextRoute;
  /** Resolves with the number of episodes made searchable (0 when none could be: the search stage reads them back). */
  finish(): Promise<number>;
}

export interface IndexOptions {
  /** Checked between lines; returning true stops the pass at a consistent point. */
  readonly isCancelled?: () => boolean;
  readonly onProgress?: (progress: IndexProgress) => void;
  /** Episodes per transaction. */
  readonly batchSize?: number;
  /** Build the full-text index in the same pass (default true). */
  readonly search?: boolean;
  /** Parse in a worker running this script (`dist/parseWorker.js`); default: in this thread. */
  readonly parseWorkerScript?: string;
  /**
   * With `parseWorkerScript` and no side search: parse with this many workers (default 1), batches
   * still delivered in file order (pooledProducer.ts). For a sink lighter than the parse; the
   * index's writer is not, and one worker already keeps it busy.
   */
  readonly parseWorkers?: number;
  /** What a worker script other than parseWorker.js needs (ParseWorkerData.job); it then parses in a pool. */
  readonly parseWorkerJob?: unknown;
  /** Read every trace file with this importer (`--format`), instead of detecting each file's format. */
  readonly format?: string;
  /**
   * The formats to detect among, besides the canonical one (default: the registered formatMappers).
   * A custom list parses in this thread: a parse worker knows only the registered formats.
   */
  readonly mappers?: readonly FormatMapper[];
  /** With a parse worker: build the full-text index of the lines read in this pass there (a cold pass). */
  readonly sideSearch?: SideSearch;
  /**
   * Read only the runs this accepts (`credit-lens table --run`): the others' files are not read,
   * nor counted in the pass's totals, and what the sink holds of them is left as it is.
   */
  readonly runs?: (run: { readonly name: string; readonly root: string }) => boolean;
}

/**
 * Brings the index of a run folder up to date: finds runs (run.json folders, and experiments
 * inferred from the producers' layouts) and trace files, lists side files as other files, detects each new or
 * changed file's format, reads only what changed since the last pass (appended lines; whole files
 * when truncated or rewritten, or when not JSONL), records bad records as issues while keeping every
 * valid one, forgets deleted files, and fills the full-text index: JSONL batches carry their
 * message text, written with the episodes (or, in a cold pass with {@link IndexOptions.sideSearch},
 * sent to a side index copied in after the last batch); episodes of other files (and those indexed with search
 * off) go through the search stage at the end, which reads their text back. Every batch is committed
 * together with the file's new state, so a crash or a cancellation leaves a consistent index and
 * the next pass resumes where this one stopped. JSONL files are parsed first (in the parse worker
 * when there is one), then the other files, one at a time in this thread.
 */
export async function indexRunFolder(root: string, sink: IndexSink, options: IndexOptions = {}): Promise<IndexTally> {
  const tally: IndexTally = emptyTally();
  const started = Date.now();
  const isCancelled = options.isCancelled ?? (() => false);
  const mappers = options.mappers ?? formatMappers;
  const everything = scanRunFolder(root);
  const scanned = options.runs ? onlyRuns(everything, options.runs) : everything;
  const { mappings, problems } = loadMappings(root, scanned.mappings);
  const importers = importerList([...mappings.map((m) => m.mapper), ...mappers]);
  const forced = options.format === undefined ? undefined : findImporter(options.format, importers);
  if (options.format !== undefined && forced === undefined)
    throw new Error(unknownFormatMessage(options.format, importers));
  const runIds = registerRuns(scanned.runs, sink, tally, { importers, ...(forced ? { forced } : {}) });
  tally.filesTotal = scanned.files.length;
  tally.bytesTotal = scanned.files.reduce((sum, f) => sum + f.size, 0);
  // From every run: a source is forgotten only when its file is gone, not when its run is not read.
  const kept = [...everything.files, ...everything.others].map((f) => f.uri);
  tally.removedFiles = sink.removeSourcesExcept(
    new Set([...kept, ...manifestUris(everything.runs), ...problems.map((p) => p.uri)]),
  );
  recordMappingProblems(problems, runIds, sink, tally);
  for (const other of scanned.others) {
    const run = runIds.get(other.runRoot);
    if (run) recordOtherFile(other, run.runId, sink, tally);
  }
  const report = throttle(options.onProgress, tally);
  const search = options.search !== false;
  const ctx: FileContext = { tally, report, batchSize: options.batchSize ?? 1000, mappers, mappings, search };
  const lineWork: FileWork[] = [];
  const later: (() => Promise<void>)[] = [];
  for (const file of scanned.files) {
    const run = runIds.get(file.runRoot);
    if (run === undefined) tally.filesSkipped++;
    else if (containerOf(file.uri) !== 'jsonl') later.push(() => importFile(file, run, sink, ctx, isCancelled));
    else {
      const planned = await planFileImport(file, run, sink, ctx);
      if (planned?.kind === 'lines') lineWork.push(planned.work);
      else if (planned?.kind === 'whole') later.push(() => importWholeFile(planned.work, sink, ctx, isCancelled));
      else tally.filesDone++;
    }
  }
  const producer = lazyProducer(() => makeProducer(options, isCancelled));
  try {
    await producer.parseAll(
      lineWork.map((w) => w.request),
      (index, batch) => lineWork[index]?.write(batch),
    );
  } finally {
    await producer.close();
  }
  if (options.sideSearch) {
    // Episodes are browsable already; the progress says search is still being built.
    tally.phase = 'search';
    report(true);
    tally.searchEpisodes += await options.sideSearch.finish();
    tally.phase = 'index';
    // Said at once (not at the throttle's next tick): the listed episodes are searchable now.
    report(true);
  }
  for (const next of later) {
    if (isCancelled()) break;
    await next();
  }
  tally.cancelled = isCancelled();
  tally.indexMs = Date.now() - started;
  if (!tally.cancelled && search)
    await buildSearchIndex(root, sink, { tally, isCancelled, report, mappers: options.mappers ?? formatMappers });
  tally.cancelled = isCancelled();
  tally.elapsedMs = Date.now() - started;
  tally.searchMs = tally.elapsedMs - tally.indexMs;
  report(true);
  return tally;
}

/**
 * A file that is not JSONL, planned just before it is imported: importing a file can mark files
 * that skipped repeats of its rows for re-reading, and they are then re-read in this same pass.
 */
async function importFile(
  file: ScannedFile,
  run: RunTarget,
  sink: IndexSink,
  ctx: FileContext,
  isCancelled: () => boolean,
): Promise<void> {
  const planned = await planFileImport(file, run, sink, ctx);
  if (planned?.kind === 'whole') await importWholeFile(planned.work, sink, ctx, isCancelled);
  else ctx.tally.filesDone++;
}

function registerRuns(
  runs: readonly ScannedRun[],
  sink: IndexSink,
  tally: IndexTally,
  formats: { importers: readonly FormatMapper[]; forced?: FormatMapper },
): Map<string, RunTarget> {
  const ids = new Map<string, RunTarget>();
  for (const scanned of runs) {
    const declared = scanned.manifest?.traceFormat;
    const forcedByRun =
      declared === undefined || formats.forced ? undefined : findImporter(declared, formats.importers);
    const unknown = !formats.forced && declared !== undefined && forcedByRun === undefined;
    const run: ScannedRun =
      unknown && scanned.manifestUri !== undefined
        ? {
            ...scanned,
            manifestIssue: {
              uri: scanned.manifestUri,
              line: 0,
              offset: 0,
              reason: `invalid run manifest: traceFormat: ${unknownFormatMessage(declared, formats.importers)}`,
            },
          }
        : scanned;
    const layout = {
      ...(run.layout ? { layout: run.layout } : {}),
      ...(run.layoutNote ? { layoutNote: run.layoutNote } : {}),
    };
    const runId = sink.upsertRun({
      root: run.root,
      name: run.name,
      ...(run.manifest ? { manifest: run.manifest } : {}),
      ...layout,
    });
    if (run.manifestIssue) {
      recordManifestIssue(run.manifestIssue, runId, sink);
      tally.fatal.push(`${run.manifestIssue.uri}:${run.manifestIssue.line}: ${run.manifestIssue.reason}`);
      continue;
    }
    const forced = formats.forced ?? forcedByRun;
    ids.set(run.root, {
      runId,
      roster: run.manifest?.agents ?? [],
      ...(run.manifest?.splits ? { splits: run.manifest.splits } : {}),
      ...(run.manifest?.rewardWeights ? { rewardWeights: run.manifest.rewardWeights } : {}),
      ...(run.manifest?.mechanism ? { mechanism: run.manifest.mechanism } : {}),
      ...(forced ? { forced } : {}),
    });
  }
  return ids;
}

function recordManifestIssue(issue: TraceIssue, runId: number, sink: IndexSink): void {
  const state = { size: 0, mtimeMs: 0, indexedOffset: 0, lines: 0, headHash: '' };
  const sourceId = sink.resetSource(issue.uri, runId, 'credit_lens_manifest', state);
  sink.writeIssues(sourceId, [issue]);
}

function loadMappings(
  root: string,
  uris: readonly string[],
): { mappings: LoadedMapping[]; problems: MappingProblem[] } {
  const mappings: LoadedMapping[] = [];
  const problems: MappingProblem[] = [];
  for (const uri of uris) {
    const loaded = loadMapping(root, uri);
    if (loaded.ok) mappings.push(loaded.value);
    else problems.push(loaded.error);
  }
  return { mappings, problems };
}

/** An unusable mapping file is an issue against it (in the run of its folder); the files it describes go undetected. */
function recordMappingProblems(
  problems: readonly MappingProblem[],
  runs: ReadonlyMap<string, RunTarget>,
  sink: IndexSink,
  tally: IndexTally,
): void {
  for (const problem of problems) {
    const owner = [...runs.keys()]
      .filter((r) => r === '' || problem.uri.startsWith(`${r}/`))
      .sort((a, b) => b.length - a.length)[0];
    const run = runs.get(owner ?? [...runs.keys()][0] ?? '');
    if (!run) continue;
    const state = { size: 0, mtimeMs: 0, indexedOffset: 0, lines: 0, headHash: '' };
    const sourceId = sink.resetSource(problem.uri, run.runId, mappingSourceFormat, state);
    sink.writeIssues(sourceId, [{ uri: problem.uri, line: problem.line, offset: 0, reason: problem.reason }]);
    tally.issues++;
  }
}

function manifestUris(runs: readonly ScannedRun[]): string[] {
  return runs.flatMap((run) => (run.manifestIssue ? [run.manifestIssue.uri] : []));
}

function makeProducer(options: IndexOptions, isCancelled: () => boolean): BatchProducer {
  if (options.mappers) return inThreadProducer(isCancelled, options.mappers);
  if (!options.parseWorkerScript) return inThreadProducer(isCancelled);
  // A job is for a pool's workers (even a pool of one); parseWorker.js alone takes none.
  if (!options.sideSearch && ((options.parseWorkers ?? 1) > 1 || options.parseWorkerJob !== undefined))
    return pooledProducer(options.parseWorkerScript, isCancelled, options.parseWorkers ?? 1, options.parseWorkerJob);
  return workerProducer(options.parseWorkerScript, isCancelled, options.sideSearch?.route);
}

/** Calls `onProgress` at most every 100 ms, and always when `force` is set. */
function throttle(onProgress: ((p: IndexProgress) => void) | undefined, tally: IndexTally): (force?: boolean) => void {
  let last = 0;
  return (force = false) => {
    if (!onProgress) return;
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    onProgress({ ...tally, fatal: [...tally.fatal] });
  };
}
