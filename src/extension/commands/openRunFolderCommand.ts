import type * as vscode from 'vscode';
import { indexFolder, type IndexRunFolderDeps } from './indexRunFolderCommand';
import { browse } from './pickRunFolder';

/**
 * Handler of `creditLens.openRunFolder`: adds a run folder from anywhere on disk (not necessarily in
 * the workspace) by indexing it; the views then show it and the live tail follows it.
 */
export function openRunFolderCommand(
  deps: IndexRunFolderDeps,
  choose: (purpose: string) => Promise<vscode.Uri | undefined> = browse,
): () => Promise<void> {
  return async () => {
    const folder = await choose('Credit Lens: Open Run Folder');
    if (folder !== undefined) await indexFolder(folder, deps);
  };
}
