import * as vscode from 'vscode';
import type { IndexJobResult } from '../../engine/indexJob';
import { NoIndexError, readIndexSummary } from '../../engine/indexJob';
import { describeIndexFailure } from '../indexReport';
import type { IndexedFolder, ReadSummary } from '../panels/runSummaryPanel';
import { folderLabel } from '../runFolders';
import { pickRunFolder, type ChooseRunFolder } from './pickRunFolder';

export interface ShowRunSummaryDeps {
  readonly log: vscode.LogOutputChannel;
  readonly showSummary: (indexed: IndexedFolder) => void;
  /** Indexes a folder that has no index yet (the index command's pass, with its notifications). */
  readonly indexFolder: (folder: vscode.Uri) => Promise<IndexJobResult | undefined>;
  readonly readSummary?: ReadSummary;
  /** Finds the run folder (the current one, a pick, ...); the workspace-folder picker unless given. */
  readonly chooseFolder?: ChooseRunFolder;
}

const indexNowAction = 'Index Now';

/**
 * Handler of `creditLens.showRunSummary`: opens the Run Summary panel on a folder's existing
 * index, or offers to index the folder when it has none. better-sqlite3 is synchronous; the summary
 * is a handful of aggregate queries, cheap enough for the extension host thread.
 */
export function showRunSummaryCommand(deps: ShowRunSummaryDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickRunFolder)(argument, 'Credit Lens: Show Run Summary');
    if (folder === undefined) return;
    const root = folder.fsPath;
    let read: ReturnType<ReadSummary>;
    try {
      read = (deps.readSummary ?? readIndexSummary)(root);
    } catch (error) {
      await offerIndexing(folder, error, deps);
      return;
    }
    deps.showSummary({ folder, indexPath: read.index.path, summary: read.summary, cancelled: false });
  };
}

async function offerIndexing(folder: vscode.Uri, error: unknown, deps: ShowRunSummaryDeps): Promise<void> {
  const root = folder.fsPath;
  if (!(error instanceof NoIndexError)) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log.error(`Reading the index of ${root} failed: ${message}`);
    void vscode.window.showErrorMessage(describeIndexFailure(root, message, 'read'));
    return;
  }
  deps.log.info(`No index yet for ${root}`);
  const choice = await vscode.window.showInformationMessage(
    `${folderLabel(folder)} has no Credit Lens index yet.`,
    indexNowAction,
  );
  if (choice !== indexNowAction) return;
  const result = await deps.indexFolder(folder);
  if (result !== undefined) {
    deps.showSummary({
      folder,
      indexPath: result.index.path,
      summary: result.summary,
      cancelled: result.tally.cancelled,
    });
  }
}
