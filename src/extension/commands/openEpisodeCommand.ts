import { join } from 'node:path';
import * as vscode from 'vscode';
import { NoIndexError } from '../../engine/indexJob';
import { findIndexLocation } from '../../engine/indexLocation';
import { openDatabase } from '../../store/database';
import { EpisodeLookup, type EpisodeLocation, type EpisodeSuggestion } from '../../store/episodeLookup';
import { indexDbPath, loadConfigOrReport } from '../config';
import { folderLabel } from '../runFolders';
import { pickEpisodeId, type EpisodeChoice, type SuggestEpisodes } from './episodeIdPick';
import { pickRunFolder, type ChooseRunFolder } from './pickRunFolder';
import { reportJobFailure } from './recomputeCreditCommand';

/** The index reads the command needs, open while the id is picked. */
export interface EpisodeIndexReader {
  byExternalId(externalId: string): EpisodeLocation[];
  byPrefix(prefix: string): EpisodeSuggestion[];
  close(): void;
}

/** Opens a folder's index for reading (it must exist); {@link openEpisodeIndex} unless a test injects another. */
export type OpenEpisodeIndex = (root: string, dbPath: string | undefined) => EpisodeIndexReader;

/** Asks for the id; {@link pickEpisodeId} (a quick pick with suggestions) unless a test injects another. */
export type AskEpisodeId = (suggest: SuggestEpisodes) => Promise<EpisodeChoice | undefined>;

export interface OpenEpisodeDeps {
  readonly log: vscode.LogOutputChannel;
  readonly storageDir?: string;
  readonly openIndex?: OpenEpisodeIndex;
  readonly askId?: AskEpisodeId;
  /** Opens the Episode view; without it, the trace file is opened at the episode's line. */
  readonly showEpisode?: (folder: vscode.Uri, episodeId: number) => void;
  /** Finds the run folder (the current one, a pick, ...); the workspace-folder picker unless given. */
  readonly chooseFolder?: ChooseRunFolder;
}

const title = 'Credit Lens: Open Episode by Id';

/**
 * Handler of `creditLens.openEpisode`: asks for an episode id in a quick pick that suggests the
 * index's ids as they are typed, and opens the episode in the Episode view (or its trace file at
 * the episode's line when no view is given; a pick among runs when several hold a typed id), or
 * says that no episode has that id.
 */
export function openEpisodeCommand(deps: OpenEpisodeDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickRunFolder)(argument, title);
    if (folder === undefined) return;
    const config = loadConfigOrReport(deps.log);
    if (config === undefined) return;
    const root = folder.fsPath;
    let index: EpisodeIndexReader;
    try {
      index = (deps.openIndex ?? openEpisodeIndex)(root, indexDbPath(config.indexLocation, root, deps.storageDir));
    } catch (error) {
      await reportJobFailure(folder, error, deps.log, 'search the index of');
      return;
    }
    let location: EpisodeLocation | undefined;
    try {
      location = await locate(deps, folder, index);
    } finally {
      index.close();
    }
    if (location === undefined) return;
    if (deps.showEpisode) deps.showEpisode(folder, location.episodeId);
    else await reveal(folder, location);
  };
}

/** The episode the user picks or types; undefined when dismissed or when no episode has the typed id (said). */
async function locate(
  deps: OpenEpisodeDeps,
  folder: vscode.Uri,
  index: EpisodeIndexReader,
): Promise<EpisodeLocation | undefined> {
  const suggest: SuggestEpisodes = (prefix) => index.byPrefix(prefix);
  const choice = await (deps.askId ?? ((s) => pickEpisodeId(s, { title })))(suggest);
  if (choice === undefined) return undefined;
  if (choice.kind === 'suggested') return choice.episode;
  const found = index.byExternalId(choice.id);
  if (found.length === 0) {
    deps.log.info(`No episode with id "${choice.id}" in ${folder.fsPath}`);
    void vscode.window.showInformationMessage(
      `No episode with id "${choice.id}" in the index of ${folderLabel(folder)}.`,
    );
    return undefined;
  }
  return chooseLocation(found);
}

/** The one location, or the run the user picks when several runs hold the id (undefined when dismissed). */
export async function chooseLocation(
  found: readonly EpisodeLocation[],
  pickTitle = title,
): Promise<EpisodeLocation | undefined> {
  if (found.length <= 1) return found[0];
  const items = found.map((location) => ({
    label: location.run || '(root)',
    description: `${location.uri}:${location.line}`,
    location,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: pickTitle,
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

/** Opens the folder's index read-only (it must exist) for the id lookups. */
export function openEpisodeIndex(root: string, dbPath: string | undefined): EpisodeIndexReader {
  const location = findIndexLocation(root, dbPath);
  if (!location) throw new NoIndexError(`no index for ${root}; run Credit Lens: Index Run Folder first`);
  const db = openDatabase(location.path, { readonly: true });
  const lookup = new EpisodeLookup(db);
  return {
    byExternalId: (id) => lookup.byExternalId(id),
    byPrefix: (prefix) => lookup.byPrefix(prefix),
    close: () => db.close(),
  };
}
