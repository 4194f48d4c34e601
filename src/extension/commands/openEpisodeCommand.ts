import { join } from 'node:path';
import * as vscode from 'vscode';
import { NoIndexError } from '../../engine/indexJob';
import { findIndexLocation } from '../../engine/indexLocation';
import { openDatabase } from '../../store/database';
import { EpisodeLookup, type EpisodeLocation } from '../../store/episodeLookup';
import { indexDbPath, loadConfigOrReport } from '../config';
import { folderLabel } from '../runFolders';
import { pickRunFolder, type ChooseRunFolder } from './pickRunFolder';
import { reportJobFailure } from './recomputeCreditCommand';

/** Finds the episodes with an external id in a folder's index; {@link lookUpEpisode} unless a test injects another. */
export type FindEpisode = (root: string, externalId: string, dbPath: string | undefined) => EpisodeLocation[];

export interface OpenEpisodeDeps {
  readonly log: vscode.LogOutputChannel;
  readonly storageDir?: string;
  readonly findEpisode?: FindEpisode;
  /** Opens the Episode view; without it, the trace file is opened at the episode's line. */
  readonly showEpisode?: (folder: vscode.Uri, episodeId: number) => void;
  /** Finds the run folder (the current one, a pick, ...); the workspace-folder picker unless given. */
  readonly chooseFolder?: ChooseRunFolder;
}

const title = 'Credit Lens: Open Episode by Id';

/**
 * Handler of `creditLens.openEpisode`: asks for an episode id, finds it in the run folder's index
 * and opens it in the Episode view (or its trace file at the episode's line when no view is given;
 * a pick among runs when several hold the id), or says that no episode has that id.
 */
export function openEpisodeCommand(deps: OpenEpisodeDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickRunFolder)(argument, title);
    if (folder === undefined) return;
    const config = loadConfigOrReport(deps.log);
    if (config === undefined) return;
    const id = await vscode.window.showInputBox({
      title,
      prompt: 'The episode id as the trace gives it',
      placeHolder: 'e.g. step12-g3-r1',
      validateInput: (value) => (value.trim() === '' ? 'Enter an episode id' : undefined),
    });
    if (id === undefined || id.trim() === '') return;
    const root = folder.fsPath;
    let found: EpisodeLocation[];
    try {
      found = (deps.findEpisode ?? lookUpEpisode)(
        root,
        id.trim(),
        indexDbPath(config.indexLocation, root, deps.storageDir),
      );
    } catch (error) {
      await reportJobFailure(folder, error, deps.log, 'search the index of');
      return;
    }
    if (found.length === 0) {
      deps.log.info(`No episode with id "${id.trim()}" in ${root}`);
      void vscode.window.showInformationMessage(
        `No episode with id "${id.trim()}" in the index of ${folderLabel(folder)}.`,
      );
      return;
    }
    const location = await chooseLocation(found);
    if (location === undefined) return;
    if (deps.showEpisode) deps.showEpisode(folder, location.episodeId);
    else await reveal(folder, location);
  };
}

async function chooseLocation(found: readonly EpisodeLocation[]): Promise<EpisodeLocation | undefined> {
  if (found.length <= 1) return found[0];
  const items = found.map((location) => ({
    label: location.run || '(root)',
    description: `${location.uri}:${location.line}`,
    location,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: 'Several runs have an episode with this id',
  });
  return picked?.location;
}

/** Opens the trace file with the episode's line selected (lines are 1-based in the index). */
async function reveal(folder: vscode.Uri, location: EpisodeLocation): Promise<void> {
  const file = vscode.Uri.file(join(folder.fsPath, ...location.uri.split('/')));
  const line = Math.max(0, location.line - 1);
  await vscode.commands.executeCommand('vscode.open', file, {
    selection: new vscode.Range(new vscode.Position(line, 0), new vscode.Position(line, 0)),
  });
}

/** Reads the folder's index (read-only; it must exist) for the episodes with `externalId`. */
export function lookUpEpisode(root: string, externalId: string, dbPath: string | undefined): EpisodeLocation[] {
  const location = findIndexLocation(root, dbPath);
  if (!location) throw new NoIndexError(`no index for ${root}; run Credit Lens: Index Run Folder first`);
  const db = openDatabase(location.path, { readonly: true });
  try {
    return new EpisodeLookup(db).byExternalId(externalId);
  } finally {
    db.close();
  }
}
