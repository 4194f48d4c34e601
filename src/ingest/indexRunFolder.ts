import type { IndexSink, TraceIssue } from '../core/indexing';
import { emptyTally, type IndexProgress, type IndexTally } from '../core/indexProgress';
import { inThreadProducer, lazyProducer, workerProducer, type BatchProducer } from './batchProducer';
import { planFileWork, type FileWork, type RunTarget } from './indexFile';
import { scanRunFolder, type ScannedRun } from './scanRunFolder';
import { buildSearchIndex } from './buildSearchIndex';

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
}

/**
 * Brings the index of a run folder up to date: finds runs and trace files, reads only what changed
 * since the last pass (appended lines; whole files when truncated or rewritten), records bad lines
 * as issues while keeping every valid line, forgets deleted files, then fills the full-text index.
 * Every batch of lines is committed together with the file's new offset, so a crash or a
 * cancellation leaves a consistent index and the next pass resumes where this one stopped.
 */
export async function indexRunFolder(root: string, sink: IndexSink, options: IndexOptions = {}): Promise<IndexTally> {
  const tally: IndexTally = emptyTally();
  const started = Date.now();
  const isCancelled = options.isCancelled ?? (() => false);
  const scanned = scanRunFolder(root);
  const runIds = registerRuns(scanned.runs, sink, tally);
  tally.filesTotal = scanned.files.length;
  tally.bytesTotal = scanned.files.reduce((sum, f) => sum + f.size, 0);
  tally.removedFiles = sink.removeSourcesExcept(new Set([...scanned.files.map((f) => f.uri), ...manifestUris(scanned.runs)]));
  const report = throttle(options.onProgress, tally);
  const work: FileWork[] = [];
  const ctx = { tally, report, batchSize: options.batchSize ?? 1000 };
  for (const file of scanned.files) {
    const run = runIds.get(file.runRoot);
    if (run === undefined) tally.filesSkipped++;
    else {
      const item = planFileWork(file, run, sink, ctx);
      if (item) work.push(item);
      else tally.filesDone++;
    }
  }
  const producer = lazyProducer(() => makeProducer(options, isCancelled));
  try {
    await producer.parseAll(work.map((w) => w.request), (index, batch) => work[index]?.write(batch));
  } finally {
    await producer.close();
  }
  tally.cancelled = isCancelled();
  tally.indexMs = Date.now() - started;
  if (!tally.cancelled && options.search !== false) buildSearchIndex(root, sink, { tally, isCancelled, report });
  tally.cancelled = isCancelled();
  tally.elapsedMs = Date.now() - started;
  tally.searchMs = tally.elapsedMs - tally.indexMs;
  report(true);
  return tally;
}

function registerRuns(runs: readonly ScannedRun[], sink: IndexSink, tally: IndexTally): Map<string, RunTarget> {
  const ids = new Map<string, RunTarget>();
  for (const run of runs) {
    const runId = sink.upsertRun({ root: run.root, name: run.name, ...(run.manifest ? { manifest: run.manifest } : {}) });
    if (run.manifestIssue) {
      recordManifestIssue(run.manifestIssue, runId, sink);
      tally.fatal.push(`${run.manifestIssue.uri}:${run.manifestIssue.line}: ${run.manifestIssue.reason}`);
      continue;
    }
    ids.set(run.root, { runId, roster: run.manifest?.agents ?? [] });
  }
  return ids;
}

function recordManifestIssue(issue: TraceIssue, runId: number, sink: IndexSink): void {
  const state = { size: 0, mtimeMs: 0, indexedOffset: 0, lines: 0, headHash: '' };
  const sourceId = sink.resetSource(issue.uri, runId, 'credit_lens_manifest', state);
  sink.writeIssues(sourceId, [issue]);
}

function manifestUris(runs: readonly ScannedRun[]): string[] {
  return runs.flatMap((run) => (run.manifestIssue ? [run.manifestIssue.uri] : []));
}

function makeProducer(options: IndexOptions, isCancelled: () => boolean): BatchProducer {
  return options.parseWorkerScript ? workerProducer(options.parseWorkerScript, isCancelled) : inThreadProducer(isCancelled);
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
