import * as vscode from 'vscode';
import type { IndexProgress } from '../../core/indexProgress';
import type { IndexJobOptions, IndexJobResult } from '../../engine/indexJob';
import { runIndexInWorker, type IndexJobHandle } from '../../engine/runIndexInWorker';
import type { IndexJobs } from '../indexJobs';
import {
  describeIndexFailure,
  formatIndexLog,
  formatIndexResult,
  formatProgressMessage,
  progressIncrement,
} from '../indexReport';
import type { IndexedFolder } from '../panels/runSummaryPanel';
import { configuredIndexPath } from '../config';
import { folderLabel } from '../runFolders';
import { pickFolderToIndex, type ChooseRunFolder } from './pickRunFolder';

/** Starts an index pass in a worker thread; `runIndexInWorker` unless a test injects another. */
export type RunIndex = (
  options: IndexJobOptions,
  workerScript: string,
  onProgress?: (progress: IndexProgress) => void,
) => IndexJobHandle;

export interface IndexRunFolderDeps {
  readonly log: vscode.LogOutputChannel;
  /** The built `dist/indexWorker.js`. */
  readonly workerScript: string;
  readonly jobs: IndexJobs;
  readonly showSummary: (indexed: IndexedFolder) => void;
  readonly runIndex?: RunIndex;
  /** Per-workspace storage folder (for `creditLens.index.location = workspaceStorage`). */
  readonly storageDir?: string;
  /** Called after every pass that completed or was cancelled (views and diagnostics refresh). */
  readonly onIndexed?: (folder: vscode.Uri, result: IndexJobResult) => void;
  /** Finds the run folder (the current one, a pick, ...); the workspace-folder picker for indexing unless given. */
  readonly chooseFolder?: ChooseRunFolder;
}

const showSummaryAction = 'Show Summary';
const showLogAction = 'Show Log';

/**
 * Handler of `creditLens.indexRunFolder`: indexes the explorer folder it was invoked on, else the
 * current run folder, else one chosen among the indexed (or, with none, the indexable) folders, with
 * the CLI's indexer in a worker thread.
 */
export function indexRunFolderCommand(deps: IndexRunFolderDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickFolderToIndex)(argument, 'Credit Lens: Index Run Folder');
    if (folder !== undefined) await indexFolder(folder, deps);
  };
}

/**
 * Indexes `folder` under a cancellable progress notification, logs the summary and every listed
 * problem, and reports the outcome. Returns the result, or `undefined` when the pass could not run.
 */
export async function indexFolder(folder: vscode.Uri, deps: IndexRunFolderDeps): Promise<IndexJobResult | undefined> {
  const root = folder.fsPath;
  if (deps.jobs.isRunning(root)) {
    void vscode.window.showInformationMessage(`Credit Lens is already indexing ${root}.`);
    return undefined;
  }
  deps.log.info(`Indexing ${root}`);
  let result: IndexJobResult;
  try {
    result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Credit Lens: indexing ${folderLabel(folder)}`,
        cancellable: true,
      },
      (progress, token) => runWithProgress(root, deps, progress, token),
    );
  } catch (error) {
    await reportFailure(root, error, deps);
    return undefined;
  }
  for (const line of formatIndexLog(root, result.index.path, result.summary, result.tally)) deps.log.info(line);
  deps.onIndexed?.(folder, result);
  await reportResult(
    { folder, indexPath: result.index.path, summary: result.summary, cancelled: result.tally.cancelled },
    result,
    deps,
  );
  return result;
}

async function runWithProgress(
  root: string,
  deps: IndexRunFolderDeps,
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  token: vscode.CancellationToken,
): Promise<IndexJobResult> {
  let reported = 0;
  const dbPath = configuredIndexPath(root, deps.storageDir);
  const handle = (deps.runIndex ?? runIndexInWorker)(
    { root, ...(dbPath ? { dbPath } : {}) },
    deps.workerScript,
    (update) => {
      const step = progressIncrement(reported, update);
      reported = step.percent;
      progress.report({ increment: step.increment, message: formatProgressMessage(update) });
    },
  );
  const release = deps.jobs.track(root, handle);
  const cancellation = token.onCancellationRequested(() => {
    deps.log.info(`Cancelling the pass over ${root}; what was read so far stays indexed`);
    handle.cancel();
  });
  if (token.isCancellationRequested) handle.cancel();
  try {
    return await handle.result;
  } finally {
    cancellation.dispose();
    release.dispose();
  }
}

async function reportResult(indexed: IndexedFolder, result: IndexJobResult, deps: IndexRunFolderDeps): Promise<void> {
  const text = formatIndexResult(result.summary, result.tally);
  const show = result.tally.fatal.length > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await show(text, showSummaryAction, showLogAction);
  if (choice === showSummaryAction) deps.showSummary(indexed);
  else if (choice === showLogAction) deps.log.show();
}

async function reportFailure(root: string, error: unknown, deps: IndexRunFolderDeps): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  deps.log.error(`Indexing ${root} failed: ${message}`);
  const choice = await vscode.window.showErrorMessage(describeIndexFailure(root, message), showLogAction);
  if (choice === showLogAction) deps.log.show();
}
