import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TraceIssue } from '../core/indexing';
import type { RunManifest } from '../core/runManifest';
import { decodeManifest } from './canonical/decodeManifest';
import { containerExtensions } from './importers/containers/container';
import { isMappingFileName } from './importers/mappingFiles';
import { isSideFileName } from './importers/sideFiles';
import { jsonErrorLine } from './jsonErrorLine';

/** A trace file found in the folder. */
export interface ScannedFile {
  /** Relative path with `/` separators; the file's identity in the index. */
  readonly uri: string;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The run the file belongs to (the nearest folder with a run.json, else the root). */
  readonly runRoot: string;
}

/** A run folder: the root, or a sub-folder with its own run.json. */
export interface ScannedRun {
  readonly root: string;
  readonly name: string;
  readonly manifest?: RunManifest;
  readonly manifestUri?: string;
  /** Set when run.json exists but cannot be used; the run's files are then not read. */
  readonly manifestIssue?: TraceIssue;
}

export interface ScannedFolder {
  readonly runs: readonly ScannedRun[];
  readonly files: readonly ScannedFile[];
  /** Declarative mapping files (`mapping.json`, `*.mapping.json`), relative paths in path order. */
  readonly mappings: readonly string[];
  /** Side files a format names (`FormatMapper.sideFiles`, e.g. C3's `budget_ledger.jsonl`): listed, never read. */
  readonly others: readonly string[];
}

export const manifestFileName = 'run.json';
/** Extensions of trace files (lower case): JSONL, JSON, Inspect `.eval` archives, Parquet tables. */
export const traceExtensions: readonly string[] = Object.keys(containerExtensions);

/**
 * True for a file the indexer reads: a trace extension, and not the run manifest or a declarative
 * mapping file (`mapping.json`, `*.mapping.json`), which describe traces rather than hold them.
 */
export function isTraceFileName(name: string): boolean {
  if (name === manifestFileName || isMappingFileName(name)) return false;
  return traceExtensions.some((ext) => name.endsWith(ext));
}
/** Folders never searched for traces: the index itself, VCS and package folders. */
const skippedFolders = new Set(['node_modules', '.credit-lens', '.git']);

/**
 * Lists the runs and trace files under `root`. Hidden folders, `node_modules` and the index folder
 * are skipped. Files are sorted by path so every pass visits them in the same order.
 */
export function scanRunFolder(root: string): ScannedFolder {
  const runs: ScannedRun[] = [];
  const files: ScannedFile[] = [];
  const mappings: string[] = [];
  const others: string[] = [];
  walk(root, '', undefined, { runs, files, mappings, others }, basename(root));
  files.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return { runs, files, mappings: mappings.sort(), others: others.sort() };
}

interface Found {
  readonly runs: ScannedRun[];
  readonly files: ScannedFile[];
  readonly mappings: string[];
  readonly others: string[];
}

function walk(root: string, rel: string, parentRun: string | undefined, found: Found, rootName: string): void {
  const { runs, files } = found;
  const dir = rel ? join(root, rel) : root;
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  let runRoot = parentRun;
  if (entries.some((e) => e.isFile() && e.name === manifestFileName)) {
    runs.push(readRun(root, rel, rel ? basename(rel) : rootName));
    runRoot = rel;
  }
  for (const entry of entries) {
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && !entry.name.startsWith('.') && !skippedFolders.has(entry.name)) {
      walk(root, childRel, runRoot, found, rootName);
    } else if (entry.isFile() && isMappingFileName(entry.name)) {
      found.mappings.push(childRel);
    } else if (entry.isFile() && isSideFileName(entry.name)) {
      found.others.push(childRel);
    } else if (entry.isFile() && isTraceFileName(entry.name)) {
      const stat = statSync(join(root, childRel));
      if (runRoot === undefined) {
        if (!runs.some((run) => run.root === '')) runs.push({ root: '', name: rootName });
        runRoot = '';
      }
      files.push({ uri: childRel, path: join(root, childRel), size: stat.size, mtimeMs: stat.mtimeMs, runRoot });
    }
  }
}

function readRun(root: string, rel: string, folderName: string): ScannedRun {
  const manifestUri = rel ? `${rel}/${manifestFileName}` : manifestFileName;
  const issue = (line: number, reason: string): ScannedRun => ({
    root: rel,
    name: folderName,
    manifestUri,
    manifestIssue: { uri: manifestUri, line, offset: 0, reason },
  });
  let text: string;
  try {
    text = readFileSync(join(root, manifestUri), 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    return issue(0, `cannot read run manifest: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return issue(jsonErrorLine(error, text), `run manifest is not valid JSON: ${(error as Error).message}`);
  }
  const manifest = decodeManifest(json, folderName);
  if (!manifest.ok) return issue(0, `invalid run manifest: ${manifest.error}`);
  return { root: rel, name: manifest.value.name, manifest: manifest.value, manifestUri };
}
