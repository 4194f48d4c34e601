import { statSync } from 'node:fs';
import type { IndexProgress, IndexTally } from '../core/indexProgress';
import type { IndexSummary } from '../core/indexSummary';
import { indexRunFolder } from '../ingest/indexRunFolder';
import type { OpenOptions } from '../store/database';
import { IndexStore } from '../store/indexStore';
import { findIndexLocation, resolveIndexLocation, type IndexLocation } from './indexLocation';
import { startSideSearch, type SideSearchHandle } from './indexWorkerSearch';

export interface IndexJobOptions {
  /** The run folder to index. */
  readonly root: string;
  /** Index file; default `<root>/.credit-lens/index.sqlite` (see resolveIndexLocation). */
  readonly dbPath?: string;
  /** Build the full-text index too (default true). */
  readonly search?: boolean;
  readonly batchSize?: number;
  /** better-sqlite3 addon for this runtime's ABI (the packaged extension passes one). */
  readonly nativeBinding?: string;
  /** Parse in a second worker running this script (`dist/parseWorker.js`); default: in this thread. */
  readonly parseWorkerScript?: string;
  /** Read every trace file with this importer (`--format`) instead of detecting formats by content. */
  readonly format?: string;
  /**
   * With `parseWorkerScript`: the index worker script (`dist/indexWorker.js`), to build the
   * full-text index of a cold pass (an empty one) in a third thread (indexWorkerSearch.ts).
   */
  readonly sideSearchScript?: string;
}

export interface IndexJobResult {
  readonly index: IndexLocation;
  readonly tally: IndexTally;
  readonly summary: IndexSummary;
}

/**
 * One indexing pass over a run folder, start to finish, in the calling thread: resolve the index
 * location, open (and migrate) the store, index what changed, summarise. The worker, the CLI and
 * the tests all run this same function.
 */
export async function runIndexJob(
  options: IndexJobOptions,
  hooks: { isCancelled?: () => boolean; onProgress?: (p: IndexProgress) => void } = {},
): Promise<IndexJobResult> {
  if (!statSync(options.root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`run folder not found: ${options.root}`);
  }
  const index = resolveIndexLocation(options.root, options.dbPath);
  const open = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  // 16 MiB of page cache instead of 32: the cold index of the 1 GB run took no longer (paired, 1.01×)
  // and its peak fell 17 MiB; at 10 GB it peaked at 298 and 302 MB with 32, over the 300 MB bound,
  // and at 283 and 291 with 16 (BENCHMARKS.md, issue 15 seventeenth part).
  const store = IndexStore.open(index.path, { ...open, cacheMiB: 16 });
  const sideSearch = coldSideSearch(options, store, index.path, open);
  try {
    const tally = await indexRunFolder(options.root, store, {
      ...hooks,
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      ...(options.parseWorkerScript ? { parseWorkerScript: options.parseWorkerScript } : {}),
      ...(options.format !== undefined ? { format: options.format } : {}),
      ...(sideSearch ? { sideSearch } : {}),
      search: options.search ?? true,
    });
    return { index, tally, summary: store.summary.summary() };
  } finally {
    await sideSearch?.close();
    store.close();
  }
}

/**
 * The side full-text index of a cold pass: when search is on, lines are parsed in a worker, and
 * the index's full-text index is empty (a first pass, or one after `--no-search`), so that the
 * side index can be copied in whole, by a driver able to. Appends and rewrites keep writing it in the batch's transaction.
 */
function coldSideSearch(
  options: IndexJobOptions,
  store: IndexStore,
  indexPath: string,
  open: OpenOptions,
): SideSearchHandle | undefined {
  const { parseWorkerScript, sideSearchScript } = options;
  if (options.search === false || !parseWorkerScript || !sideSearchScript || indexPath === ':memory:') return undefined;
  // Only a driver that can write FTS5 shadow tables can copy it in (not node:sqlite).
  if (!store.db.unsafeMode || !store.search.isEmpty()) return undefined;
  return startSideSearch(store, { indexPath, sidePath: `${indexPath}.search-tmp` }, sideSearchScript, open);
}

/** The folder has not been indexed yet (an expected state, not a failure). */
export class NoIndexError extends Error {}

/** Reads the summary of an existing index without indexing (`credit-lens info`). */
export function readIndexSummary(root: string, dbPath?: string): { index: IndexLocation; summary: IndexSummary } {
  const index = findIndexLocation(root, dbPath);
  if (!index) throw new NoIndexError(`no index for ${root}; run \`credit-lens index ${root}\` first`);
  const store = IndexStore.open(index.path);
  try {
    return { index, summary: store.summary.summary() };
  } finally {
    store.close();
  }
}
