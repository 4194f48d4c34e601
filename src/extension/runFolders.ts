import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { indexFileName, indexFolderName } from '../engine/indexLocation';
import { manifestFileName, traceExtensions } from '../ingest/scanRunFolder';
import { Disposable, toDisposable } from './lifecycle';
import { runFolderCandidates, runFolderLabel } from './runFolderChoice';

/** Where commands and views learn about run folders; {@link RunFolders} in the extension. */
export interface RunFolderSource {
  /** Resolves once the search of the workspace under way has finished. */
  ready(): Promise<void>;
  /** Every folder known to have an index, by path. */
  indexed(): readonly vscode.Uri[];
  /** The folder commands act on: the last one indexed or picked while it has an index, else the only indexed folder. */
  current(): vscode.Uri | undefined;
  /** The folder last indexed or picked, indexed or not. */
  lastChosen(): vscode.Uri | undefined;
  /** Makes `folder` the current run folder (remembered per workspace). */
  choose(folder: vscode.Uri): void;
  /** The folders worth indexing: those holding run manifests or trace files, then the workspace folders. */
  candidates(): Promise<readonly vscode.Uri[]>;
  /** A short description for picks (runs and episodes of its index), when cheap to tell. */
  describe(folder: vscode.Uri): string | undefined;
}

/** Every index written inside a run folder, by the CLI or the extension (the activation event's glob). */
export const indexGlob = `**/${indexFolderName}/${indexFileName}`;
/** Never searched for indexes: package and VCS folders (an installed package may ship a demo index). */
export const indexSearchExclude = '{**/node_modules/**,**/.git/**}';
/** Run manifests and trace files; `.json` files other than run.json are too common to mark a run folder. */
const runFileGlob = `**/{${[manifestFileName, ...traceExtensions.filter((ext) => ext !== '.json').map((ext) => `*${ext}`)].join(',')}}`;
/** Hidden folders (the index itself, .git, virtualenvs) and node_modules, which the indexer skips too. */
const runFileExclude = '{**/node_modules/**,**/.*/**}';
const maxIndexes = 50;
const maxRunFiles = 1000;
/** The workspaceState key of the chosen run folder (its path). */
export const chosenFolderKey = 'creditLens.runFolder';

export interface RunFoldersOptions {
  /** Per-workspace memory (`context.workspaceState`). */
  readonly state: Pick<vscode.Memento, 'get' | 'update'>;
  /** True when the folder has an index where the settings put it. */
  readonly hasIndex: (folder: vscode.Uri) => boolean;
  readonly describe?: (folder: vscode.Uri) => string | undefined;
  readonly log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  /** Quiet time after index files appear or disappear before the workspace is searched again (default 300 ms). */
  readonly debounceMs?: number;
}

/**
 * The run folders of the workspace: every folder holding a Credit Lens index (found with `findFiles`,
 * bounded, never in node_modules, and searched again when an index appears or disappears), the
 * workspace folders and the folders indexed or picked this session when they have an index, and the
 * current run folder, remembered in `workspaceState`. Fires `onDidChange` when any of it changes.
 */
export class RunFolders extends Disposable implements RunFolderSource {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private found: readonly vscode.Uri[] = [];
  /** Folders indexed or picked this session: Open Run Folder may add one outside the workspace. */
  private readonly known = new Map<string, vscode.Uri>();
  private chosen: string | undefined;
  private searching: Promise<void>;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RunFoldersOptions) {
    super();
    const saved = options.state.get<unknown>(chosenFolderKey);
    this.chosen = typeof saved === 'string' && saved !== '' ? saved : undefined;
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(indexGlob, false, true, false));
    this._register(watcher.onDidCreate(() => this.searchSoon()));
    this._register(watcher.onDidDelete(() => this.searchSoon()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.searchSoon()));
    this._register(toDisposable(() => clearTimeout(this.timer)));
    this.searching = this.search();
  }

  ready(): Promise<void> {
    return this.searching;
  }

  indexed(): vscode.Uri[] {
    const chosen = this.lastChosen();
    return uniqueByPath([
      ...(chosen ? [chosen] : []),
      ...this.known.values(),
      ...workspaceRoots(),
      ...this.found,
    ]).filter((folder) => this.options.hasIndex(folder));
  }

  current(): vscode.Uri | undefined {
    const chosen = this.lastChosen();
    if (chosen && this.options.hasIndex(chosen)) return chosen;
    const indexed = this.indexed();
    return indexed.length === 1 ? indexed[0] : undefined;
  }

  lastChosen(): vscode.Uri | undefined {
    return this.chosen === undefined ? undefined : vscode.Uri.file(this.chosen);
  }

  choose(folder: vscode.Uri): void {
    this.known.set(folder.fsPath, folder);
    if (this.chosen === folder.fsPath) return;
    this.chosen = folder.fsPath;
    void this.options.state.update(chosenFolderKey, folder.fsPath);
    this.changed.fire();
  }

  async candidates(): Promise<readonly vscode.Uri[]> {
    const roots = workspaceRoots();
    const files = await this.find(runFileGlob, runFileExclude, maxRunFiles, 'run folders');
    const found = runFolderCandidates(
      roots.map((root) => root.fsPath),
      files.map((file) => file.fsPath),
      manifestFileName,
    );
    return [...found.map((path) => vscode.Uri.file(path)), ...roots];
  }

  describe(folder: vscode.Uri): string | undefined {
    return this.options.describe?.(folder);
  }

  private searchSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.searching = this.search();
    }, this.options.debounceMs ?? 300);
  }

  private async search(): Promise<void> {
    const files = await this.find(indexGlob, indexSearchExclude, maxIndexes, 'Credit Lens indexes');
    this.found = uniqueByPath(files.map((file) => vscode.Uri.file(dirname(dirname(file.fsPath)))));
    if (this.found.length > 0)
      this.options.log.info(`Credit Lens indexes in the workspace: ${this.found.map(folderLabel).join(', ')}`);
    if (!this.isDisposed) this.changed.fire();
  }

  /** `findFiles`, logging (not throwing) a failure: the workspace then simply shows nothing more. */
  private async find(include: string, exclude: string, max: number, what: string): Promise<readonly vscode.Uri[]> {
    try {
      return await vscode.workspace.findFiles(include, exclude, max);
    } catch (error) {
      this.options.log.warn(
        `Could not search the workspace for ${what}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    }
  }
}

/** The workspace folders' URIs (none without a workspace). */
export function workspaceRoots(): vscode.Uri[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri);
}

/** How messages and picks name a run folder: relative to its workspace folder (see {@link runFolderLabel}). */
export function folderLabel(folder: vscode.Uri): string {
  const roots = (vscode.workspace.workspaceFolders ?? []).map(({ uri, name }) => ({ fsPath: uri.fsPath, name }));
  return runFolderLabel(folder.fsPath, roots);
}

function uniqueByPath(folders: readonly vscode.Uri[]): vscode.Uri[] {
  const byPath = new Map<string, vscode.Uri>();
  for (const folder of folders) if (!byPath.has(folder.fsPath)) byPath.set(folder.fsPath, folder);
  return [...byPath.values()].sort((a, b) => (a.fsPath < b.fsPath ? -1 : a.fsPath > b.fsPath ? 1 : 0));
}
