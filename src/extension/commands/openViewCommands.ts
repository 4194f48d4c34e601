import * as vscode from 'vscode';
import { pickRunFolder, type ChooseRunFolder } from './pickRunFolder';

/** Opens the Run Dashboard of a folder (on a run when given); the DashboardPanel's `show`. */
export type ShowDashboard = (folder: vscode.Uri, runId?: number) => void;
/** Opens an episode in the Episode panel; the EpisodePanel's `show`. */
export type ShowEpisode = (folder: vscode.Uri, episodeId: number) => void;

/** A Runs-view node as a context menu passes it: a run, or an episode (with its run). */
interface TreeNodeArgument {
  readonly folder: vscode.Uri;
  readonly run?: { readonly runId: number };
  readonly episode?: { readonly episodeId: number };
}

function treeNode(argument: unknown): TreeNodeArgument | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const node = argument as Partial<TreeNodeArgument>;
  return node.folder instanceof vscode.Uri ? (node as TreeNodeArgument) : undefined;
}

/**
 * Handler of `creditLens.openDashboard`: the dashboard of the run a Runs-view node belongs to, or of
 * the current run folder (picked like every other command's).
 */
export function openDashboardCommand(
  show: ShowDashboard,
  chooseFolder: ChooseRunFolder = pickRunFolder,
): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    // A Runs-view node names its folder, which chooseFolder takes (and makes current).
    const folder = await chooseFolder(argument, 'Credit Lens: Open Run Dashboard');
    if (folder) show(folder, treeNode(argument)?.run?.runId);
  };
}

/**
 * Handler of `creditLens.openEpisodeView`: the Episode view of a Runs-view episode; from anywhere
 * else it asks for an episode id (`creditLens.openEpisode`).
 */
export function openEpisodeViewCommand(
  show: ShowEpisode,
  openById: (argument?: unknown) => Promise<void>,
): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const node = treeNode(argument);
    if (node?.episode) {
      show(node.folder, node.episode.episodeId);
      return;
    }
    await openById(argument);
  };
}
