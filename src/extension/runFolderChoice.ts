import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

/** How to get the run folder for a command. */
export type RunFolderChoice<F> =
  /** Act on this folder. */
  | { readonly kind: 'use'; readonly folder: F }
  /** Several folders have an index and none was chosen: ask which. */
  | { readonly kind: 'pick'; readonly folders: readonly F[] }
  /** No workspace is open: a folder dialog. */
  | { readonly kind: 'browse' }
  /** The command reads an index and the workspace has none: offer to index a run folder. */
  | { readonly kind: 'offerIndexing' }
  /** The Index command with no index anywhere: choose among the run folders found in the workspace. */
  | { readonly kind: 'chooseToIndex' };

/** What a command needs its folder for: reading its index, or (re)indexing it. */
export type RunFolderNeed = 'read' | 'index';

/** What the decision looks at. */
export interface RunFolderFacts<F> {
  /** The folder the command was invoked on (explorer context menu, Runs-view node). */
  readonly invokedOn?: F;
  /** The folder the user last indexed or picked, while it still has an index. */
  readonly current?: F;
  /** The folder the user last indexed or picked, indexed or not. */
  readonly lastChosen?: F;
  /** Every folder known to have an index. */
  readonly indexed: readonly F[];
  readonly hasWorkspace: boolean;
  readonly need: RunFolderNeed;
}

/**
 * Decides where a command's run folder comes from, in this order: the folder it was invoked on, the
 * current run folder (last indexed or picked), the only indexed folder, a pick among the indexed
 * folders; with no index anywhere, a folder dialog when no workspace is open, else an offer to index
 * (reading commands) or a choice among the workspace's run folders (the Index command, which also
 * re-indexes the last chosen folder when its index went away).
 */
export function runFolderChoice<F>(facts: RunFolderFacts<F>): RunFolderChoice<F> {
  const { invokedOn, current, indexed } = facts;
  if (invokedOn !== undefined) return { kind: 'use', folder: invokedOn };
  if (current !== undefined) return { kind: 'use', folder: current };
  const [only] = indexed;
  if (indexed.length === 1 && only !== undefined) return { kind: 'use', folder: only };
  if (indexed.length > 1) return { kind: 'pick', folders: indexed };
  if (facts.need === 'index' && facts.lastChosen !== undefined) return { kind: 'use', folder: facts.lastChosen };
  if (!facts.hasWorkspace) return { kind: 'browse' };
  return facts.need === 'index' ? { kind: 'chooseToIndex' } : { kind: 'offerIndexing' };
}

/** A workspace folder as the labels need it. */
export interface NamedRoot {
  readonly fsPath: string;
  readonly name: string;
}

/**
 * How messages and picks name a folder: relative to the workspace folder holding it (`demo-run`,
 * `runs/exp-3`; prefixed with the workspace folder's name in a multi-root workspace), the workspace
 * folder's name for itself, else the absolute path.
 */
export function runFolderLabel(fsPath: string, roots: readonly NamedRoot[]): string {
  for (const root of roots) {
    const rel = relative(root.fsPath, fsPath);
    if (rel === '') return root.name;
    if (isInside(rel)) {
      const path = rel.split(sep).join('/');
      return roots.length > 1 ? `${root.name}/${path}` : path;
    }
  }
  return fsPath;
}

/** The folders offered at most by {@link runFolderCandidates}, besides the workspace folders. */
export const maxCandidates = 20;

/**
 * The folders worth indexing, from the run manifests and trace files found in the workspace (absolute
 * paths): each top-level sub-folder holding any (indexing a folder takes every run below it), and
 * each folder with a run.json (one run). Sorted by path, at most {@link maxCandidates}, without the
 * workspace folders themselves (the caller offers them apart).
 */
export function runFolderCandidates(
  roots: readonly string[],
  files: readonly string[],
  manifestName = 'run.json',
): string[] {
  const found = new Set<string>();
  for (const file of files) {
    const root = roots.find((r) => isInside(relative(r, file)));
    if (root === undefined) continue;
    const [top] = relative(root, file).split(sep);
    const folder = dirname(file);
    if (top !== undefined && folder !== root) found.add(join(root, top));
    if (basename(file) === manifestName && folder !== root) found.add(folder);
  }
  return [...found].sort().slice(0, maxCandidates);
}

function isInside(rel: string): boolean {
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
