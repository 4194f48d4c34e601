import * as vscode from 'vscode';
import { hasIndex } from '../config';
import { runFolderChoice, type RunFolderNeed } from '../runFolderChoice';
import { folderLabel, workspaceRoots, type RunFolderSource } from '../runFolders';

/** Finds the run folder a command acts on; `undefined` when the user dismissed a pick or a dialog. */
export type ChooseRunFolder = (argument: unknown, purpose: string) => Promise<vscode.Uri | undefined>;

const browseLabel = '$(folder-opened) Browse…';
const indexAction = 'Index Run Folder…';
/** `commandIds.indexRunFolder`, spelled out: commandIds imports this file. */
const indexRunFolderId = 'creditLens.indexRunFolder';

/**
 * The run folder of a command (see {@link runFolderChoice}), which becomes the current one.
 * `argument` is what VS Code passed to the command: a `Uri` from the explorer context menu, a node
 * from the Runs view, nothing from the command palette. With no index anywhere, a reading command
 * offers to index a folder (and then stops); the Index command asks which folder to index.
 */
export function runFolderPicker(source: RunFolderSource, need: RunFolderNeed): ChooseRunFolder {
  return async (argument, purpose) => {
    await source.ready();
    const invokedOn = argument instanceof vscode.Uri ? argument : folderOfNode(argument);
    const lastChosen = source.lastChosen();
    const current = source.current();
    const choice = runFolderChoice({
      ...(invokedOn ? { invokedOn } : {}),
      ...(current ? { current } : {}),
      ...(lastChosen ? { lastChosen } : {}),
      indexed: source.indexed(),
      hasWorkspace: workspaceRoots().length > 0,
      need,
    });
    let folder: vscode.Uri | undefined;
    switch (choice.kind) {
      case 'use':
        folder = choice.folder;
        break;
      case 'pick':
        folder = await pickAmong(
          choice.folders,
          source,
          purpose,
          'Several folders have a Credit Lens index: choose the run folder',
        );
        break;
      case 'browse':
        folder = await browse(purpose);
        break;
      case 'chooseToIndex':
        folder = await chooseFolderToIndex(source, purpose);
        break;
      case 'offerIndexing':
        await offerIndexing(source, purpose);
        return undefined;
    }
    if (folder !== undefined) source.choose(folder);
    return folder;
  };
}

/**
 * A source without search or memory: the workspace folders, those with an index as indexed. Commands
 * built without {@link RunFolderSource} (tests) use it.
 */
export const workspaceFolderSource: RunFolderSource = {
  ready: () => Promise.resolve(),
  indexed: () => workspaceRoots().filter((root) => hasIndex(root.fsPath, undefined)),
  current: () => undefined,
  lastChosen: () => undefined,
  choose: () => undefined,
  candidates: () => Promise.resolve(workspaceRoots()),
  describe: () => undefined,
};

/** The folder of a reading command over {@link workspaceFolderSource}. */
export const pickRunFolder: ChooseRunFolder = runFolderPicker(workspaceFolderSource, 'read');
/** The folder of the Index command over {@link workspaceFolderSource}. */
export const pickFolderToIndex: ChooseRunFolder = runFolderPicker(workspaceFolderSource, 'index');

/** With no index in the workspace: says so, and on request indexes a folder chosen among the run folders found. */
async function offerIndexing(source: RunFolderSource, purpose: string): Promise<void> {
  const answer = await vscode.window.showInformationMessage(
    'No Credit Lens index in this workspace yet: index a run folder first.',
    indexAction,
  );
  if (answer !== indexAction) return;
  const folder = await chooseFolderToIndex(source, purpose);
  if (folder !== undefined) await vscode.commands.executeCommand(indexRunFolderId, folder);
}

/** The only folder worth indexing, or a pick among them (run folders first, then the workspace folders). */
async function chooseFolderToIndex(source: RunFolderSource, purpose: string): Promise<vscode.Uri | undefined> {
  const candidates = await source.candidates();
  const [only] = candidates;
  if (candidates.length === 1 && only !== undefined) return only;
  return pickAmong(candidates, source, purpose, 'Choose the run folder');
}

async function pickAmong(
  folders: readonly vscode.Uri[],
  source: RunFolderSource,
  purpose: string,
  placeHolder: string,
): Promise<vscode.Uri | undefined> {
  const roots = new Set(workspaceRoots().map((root) => root.fsPath));
  const items: (vscode.QuickPickItem & { folder?: vscode.Uri })[] = [
    ...folders.map((folder) => ({
      label: `$(folder) ${folderLabel(folder)}`,
      description: source.describe(folder) ?? (roots.has(folder.fsPath) ? 'workspace folder' : ''),
      detail: folder.fsPath,
      folder,
    })),
    { label: browseLabel, alwaysShow: true },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: purpose, placeHolder });
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
  const folder = argument.folder;
  return folder instanceof vscode.Uri ? folder : undefined;
}

/**
 * The run an item of the Runs view stands for (a run, its steps, a step…): its folder inside the run
 * folder, as the CLI's `--run` takes it, so a command invoked on it acts on that run alone; none for
 * a folder, the palette, the explorer, or a run that is the folder itself.
 */
export function runOfItem(argument: unknown): string | undefined {
  if (typeof argument !== 'object' || argument === null || !('run' in argument)) return undefined;
  const run = argument.run;
  if (typeof run !== 'object' || run === null || !('root' in run)) return undefined;
  return typeof run.root === 'string' && run.root !== '' ? run.root : undefined;
}
