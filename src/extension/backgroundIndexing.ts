import * as vscode from 'vscode';
import type { IndexTally } from '../core/indexProgress';
import type { IndexJobResult } from '../engine/indexJob';
import { runIndexInWorker } from '../engine/runIndexInWorker';
import { LiveTail } from './liveTail';
import { traceExtensions } from '../ingest/scanRunFolder';
import { plural } from '../core/plural';

export interface BackgroundIndexingDeps {
  readonly log: vscode.LogOutputChannel;
  /** The built `dist/indexWorker.js`. */
  readonly workerScript: string;
  /** Called after each background pass over a folder (views and diagnostics refresh). */
  readonly onIndexed: (folder: vscode.Uri, result: IndexJobResult) => void;
  /** The index file the settings ask for, or undefined for the default location. */
  readonly indexPath?: (root: string) => string | undefined;
}

/**
 * Keeps indexed run folders current while training writes to them: a file watcher per followed
 * folder feeds {@link LiveTail}, each pass runs in the index worker (never on the extension host
 * thread), and a status-bar item shows the episode count and the last pass. Following honours the
 * `creditLens.liveTail.enabled` setting.
 */
export class BackgroundIndexing implements vscode.Disposable {
  private readonly tail: LiveTail;
  private status: vscode.StatusBarItem | undefined;

  constructor(private readonly deps: BackgroundIndexingDeps) {
    this.tail = new LiveTail({
      watch: (folder, onChange) => watchTraces(folder, onChange),
      runPass: async (folder) => {
        this.handle(folder, await this.pass(vscode.Uri.file(folder)));
      },
      onPass: (folder, error) => this.passed(folder, error),
    });
  }

  /** Starts following `folder` when live tail is enabled; shows its episode count either way. */
  follow(folder: vscode.Uri, result?: IndexJobResult): void {
    if (result) this.show(result);
    if (vscode.workspace.getConfiguration('creditLens').get<boolean>('liveTail.enabled', true))
      this.tail.follow(folder.fsPath);
  }

  /**
   * Runs one indexing pass over `folder` now, in the index worker, whatever the live-tail setting
   * (the pass also migrates an index an older Credit Lens wrote); the status bar shows its result.
   */
  async passNow(folder: vscode.Uri): Promise<IndexJobResult> {
    const result = await this.pass(folder);
    this.show(result);
    return result;
  }

  dispose(): void {
    this.tail.dispose();
    this.status?.dispose();
  }

  private passed(folder: string, error: unknown): void {
    if (error !== undefined) {
      this.deps.log.warn(
        `Live tail of ${folder} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      );
    }
  }

  /** Updates the status bar from a pass's result. */
  private show(result: IndexJobResult): void {
    this.status ??= vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    const { summary, tally } = result;
    this.status.text = `$(database) Credit Lens: ${plural(summary.episodes, 'episode')}`;
    this.status.tooltip = `${plural(summary.runs.length, 'run')}, ${plural(summary.errorCount, 'line')} with errors; the last pass added ${plural(tally.episodesAdded, 'episode')}`;
    this.status.command = 'creditLens.showRunSummary';
    this.status.show();
  }

  private pass(folder: vscode.Uri): Promise<IndexJobResult> {
    const dbPath = this.deps.indexPath?.(folder.fsPath);
    return runIndexInWorker({ root: folder.fsPath, ...(dbPath ? { dbPath } : {}) }, this.deps.workerScript).result;
  }

  /** A live-tail pass finished: status bar and views. */
  private handle(folder: string, result: IndexJobResult): void {
    this.show(result);
    this.deps.onIndexed(vscode.Uri.file(folder), result);
  }
}

/**
 * True when a pass only appended episodes (lines after the last indexed offset, or new files): no
 * file was re-read from the start or removed, and none was unreadable. The dashboard then updates
 * the steps that changed instead of refetching its overview.
 */
export function appendedOnly(tally: Readonly<IndexTally>): boolean {
  return tally.filesReindexed === 0 && tally.removedFiles === 0 && tally.fatal.length === 0 && !tally.cancelled;
}

/** A glob of every file the indexer reads (scanRunFolder's extensions: jsonl, ndjson, json, eval, parquet). */
const tracePattern = `**/*.{${traceExtensions.map((ext) => ext.replace(/^\./, '')).join(',')}}`;

function watchTraces(folder: string, onChange: () => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(vscode.Uri.file(folder), tracePattern),
  );
  watcher.onDidChange(onChange);
  watcher.onDidCreate(onChange);
  watcher.onDidDelete(onChange);
  return watcher;
}
