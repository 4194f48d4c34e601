import * as vscode from 'vscode';
import { runFolderChoice } from '../runFolderChoice';

const browseLabel = '$(folder-opened) Browse…';

/**
 * The run folder a command works on (see {@link runFolderChoice}); `undefined` when the user
 * dismissed the pick or the dialog. `argument` is what VS Code passed to the command: a `Uri` from
 * the explorer context menu, nothing from the command palette.
 */
export async function pickRunFolder(argument: unknown, purpose: string): Promise<vscode.Uri | undefined> {
  const target = argument instanceof vscode.Uri ? argument : folderOfNode(argument);
  const invokedOn = target ? { uri: target, name: '' } : undefined;
  const choice = runFolderChoice<Pick<vscode.WorkspaceFolder, 'uri' | 'name'>>(invokedOn, vscode.workspace.workspaceFolders);
  switch (choice.kind) {
    case 'use':
      return choice.folder.uri;
    case 'pick':
      return pickAmong(choice.folders, purpose);
    case 'browse':
      return browse(purpose);
  }
}

async function pickAmong(
  folders: readonly Pick<vscode.WorkspaceFolder, 'uri' | 'name'>[],
  purpose: string,
): Promise<vscode.Uri | undefined> {
  const items: (vscode.QuickPickItem & { folder?: vscode.Uri })[] = [
    ...folders.map(({ uri, name }) => ({ label: `$(folder) ${name}`, description: uri.fsPath, folder: uri })),
    { label: browseLabel, alwaysShow: true },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: purpose, placeHolder: 'Choose the run folder' });
  if (picked === undefined) return undefined;
  return picked.folder ?? browse(purpose);
}

/** A folder dialog: any run folder on disk, inside the workspace or not. */
export async function browse(purpose: string): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    title: purpose,
    openLabel: 'Select Run Folder',
  });
  return picked?.[0];
}

/** The indexed folder of a Runs-view node (context menus pass the node as the argument). */
function folderOfNode(argument: unknown): vscode.Uri | undefined {
  if (typeof argument !== 'object' || argument === null || !('folder' in argument)) return undefined;
  const folder = (argument).folder;
  return folder instanceof vscode.Uri ? folder : undefined;
}
