import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TraceIssue } from '../core/indexing';
import type { RunManifest } from '../core/runManifest';
import { decodeManifest } from './canonical/decodeManifest';
import { containerExtensions } from './importers/containers/container';
import { isMappingFileName } from './importers/mappingFiles';
import { jsonErrorLine } from './jsonErrorLine';
import { experimentHolding, inferRuns, type FolderListing } from './runLayout';
import { sideFileKind, type SideFileKind } from './sideFiles';

/** A trace file found in the folder. */
export interface ScannedFile {
  /** Relative path with `/` separators; the file's identity in the index. */
  readonly uri: string;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The run the file belongs to (the nearest folder with a run.json, else the experiment inferred from the layout, else the root). */
  readonly runRoot: string;
}

/** A side file (config, metrics, logger file, checkpoint): listed as an other file, never read. */
export interface ScannedOther extends ScannedFile {
  readonly kind: SideFileKind;
}

/** A run folder: the root, or a sub-folder with its own run.json. */
export interface ScannedRun {
  readonly root: string;
  readonly name: string;
  readonly manifest?: RunManifest;
  readonly manifestUri?: string;
  /** Set when run.json exists but cannot be used; the run's files are then not read. */
  readonly manifestIssue?: TraceIssue;
  /** The producer whose layout made this folder a run (no run.json), e.g. `verl`. */
  readonly layout?: string;
  /** Where the layout is ambiguous: what was assumed, and the run.json that would say otherwise. */
  readonly layoutNote?: string;
}

export interface ScannedFolder {
  readonly runs: readonly ScannedRun[];
  readonly files: readonly ScannedFile[];
  /** Declarative mapping files (`mapping.json`, `*.mapping.json`), relative paths in path order. */
  readonly mappings: readonly string[];
  /** Side files and folders (see sideFiles.ts), in path order; a folder's uri ends with `/`. */
  readonly others: readonly ScannedOther[];
}

/** The part of a scanned folder in the runs `accepts` takes: their runs, trace files and side files (mapping files stay). */
export function onlyRuns(folder: ScannedFolder, accepts: (run: ScannedRun) => boolean): ScannedFolder {
  const runs = folder.runs.filter(accepts);
  const roots = new Set(runs.map((r) => r.root));
  return {
    runs,
    files: folder.files.filter((f) => roots.has(f.runRoot)),
    mappings: folder.mappings,
    others: folder.others.filter((f) => roots.has(f.runRoot)),
  };
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
 * are skipped; side files and folders (configs, metrics, checkpoints) are listed apart. A folder
 * with a run.json is a run with the files below it; the other files go to the experiment inferred
 * from the producers' layouts (runLayout.ts), else to the root run. Files are sorted by path so
 * every pass visits them in the same order.
 */
export function scanRunFolder(root: string): ScannedFolder {
  const found: Found = { runs: [], files: [], mappings: [], others: [], folders: [] };
  walk(root, '', undefined, found, basename(root));
  const byPath = (a: { uri: string }, b: { uri: string }): number => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0);
  const { runs, files, others } = assignRuns(found, basename(root));
  return { runs, files: files.sort(byPath), mappings: found.mappings.sort(), others: others.sort(byPath) };
}

/** A file before it has a run: `runRoot` is set only when a run.json claims it. */
interface Unassigned extends Omit<ScannedFile, 'runRoot'> {
  readonly runRoot: string | undefined;
  readonly folder: string;
}

interface Found {
  readonly runs: ScannedRun[];
  readonly files: Unassigned[];
  readonly mappings: string[];
  readonly others: (Unassigned & { readonly kind: SideFileKind })[];
  /** Folders no run.json claims, for the layout rules. */
  readonly folders: FolderListing[];
}

function walk(root: string, rel: string, parentRun: string | undefined, found: Found, rootName: string): void {
  const dir = rel ? join(root, rel) : root;
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  let runRoot = parentRun;
  if (entries.some((e) => e.isFile() && e.name === manifestFileName)) {
    found.runs.push(readRun(root, rel, rel ? basename(rel) : rootName));
    runRoot = rel;
  }
  if (runRoot === undefined) {
    const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    found.folders.push({
      rel,
      name: rel ? basename(rel) : rootName,
      files: entries.filter((e) => e.isFile()).map((e) => e.name),
      folders,
    });
  }
  for (const entry of entries) {
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    const listed = (uri: string, size: number, mtimeMs: number): Unassigned => ({
      uri,
      path: join(root, childRel),
      size,
      mtimeMs,
      runRoot,
      folder: rel,
    });
    const kind = sideFileKind(entry.name, entry.isDirectory());
    if (entry.isDirectory() && !entry.name.startsWith('.') && !skippedFolders.has(entry.name)) {
      if (kind) found.others.push({ ...listed(`${childRel}/`, 0, 0), kind });
      else walk(root, childRel, runRoot, found, rootName);
    } else if (entry.isFile() && isMappingFileName(entry.name)) {
      found.mappings.push(childRel);
    } else if (entry.isFile() && entry.name !== manifestFileName && kind) {
      const stat = statSync(join(root, childRel));
      found.others.push({ ...listed(childRel, stat.size, stat.mtimeMs), kind });
    } else if (entry.isFile() && isTraceFileName(entry.name)) {
      const stat = statSync(join(root, childRel));
      found.files.push(listed(childRel, stat.size, stat.mtimeMs));
    }
  }
}

/**
 * Gives every file its run: the run.json's that claims it, else the experiment the layout rules
 * infer for its folder, else the root run (created when some file needs it). The root run gets a
 * note when it holds files besides inferred runs: a run.json would say which run they belong to.
 */
function assignRuns(
  found: Found,
  rootName: string,
): { runs: ScannedRun[]; files: ScannedFile[]; others: ScannedOther[] } {
  const inferred = inferRuns(found.folders);
  const experiments = new Set(inferred.map((r) => r.root));
  const runs = [...found.runs];
  const used = new Set<string>();
  const place = <T extends Unassigned>(item: T): T & { runRoot: string } => {
    const runRoot = item.runRoot ?? experimentHolding(item.folder, experiments) ?? '';
    used.add(runRoot);
    return { ...item, runRoot };
  };
  const files = found.files.map((f) => strip(place(f)));
  const others = found.others.map((o) => ({ ...strip(place(o)), kind: o.kind }));
  for (const run of inferred) {
    if (used.has(run.root) && !runs.some((r) => r.root === run.root))
      runs.push({
        root: run.root,
        name: run.root || rootName,
        layout: run.layout,
        ...(run.note ? { layoutNote: run.note } : {}),
      });
  }
  if (used.has('') && !runs.some((r) => r.root === '')) {
    const loose = files.filter((f) => f.runRoot === '').length;
    const note =
      inferred.length > 0 && loose > 0
        ? `${loose} trace ${loose === 1 ? 'file is' : 'files are'} outside the runs inferred from the layout; add a run.json to a folder to make it a run`
        : undefined;
    runs.push({ root: '', name: rootName, ...(note ? { layoutNote: note } : {}) });
  }
  return { runs: runs.sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0)), files, others };
}

function strip(item: Unassigned & { runRoot: string }): ScannedFile {
  return { uri: item.uri, path: item.path, size: item.size, mtimeMs: item.mtimeMs, runRoot: item.runRoot };
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
