import * as vscode from 'vscode';
import { pickRunFolder, type ChooseRunFolder } from './pickRunFolder';

/** Inclusive training steps `[from, to]` to show. */
export type StepSpan = readonly [number, number];
/** Opens the Run Dashboard of a folder (on a run when given, filtered to its steps `steps`); the DashboardPanel's `show`. */
export type ShowDashboard = (folder: vscode.Uri, runId?: number, steps?: StepSpan) => void;
/** Opens an episode in the Episode panel; the EpisodePanel's `show`. */
export type ShowEpisode = (folder: vscode.Uri, episodeId: number) => void;

/**
 * A Runs-view node as a context menu passes it: a run, or an episode (with its run); a Problems
 * quick fix passes the same shape with the steps of its flag's window.
 */
interface TreeNodeArgument {
  readonly folder: vscode.Uri;
  readonly run?: { readonly runId: number };
  readonly episode?: { readonly episodeId: number };
  readonly steps?: unknown;
}

/** The argument's steps when they are two integers, the first not after the second. */
export function stepsArgument(argument: unknown): StepSpan | undefined {
  const steps = treeNode(argument)?.steps;
  if (!Array.isArray(steps) || steps.length !== 2) return undefined;
  const [from, to] = steps as unknown[];
  return Number.isSafeInteger(from) && Number.isSafeInteger(to) && (from as number) <= (to as number)
    ? [from as number, to as number]
    : undefined;
}

function treeNode(argument: unknown): TreeNodeArgument | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const node = argument as Partial<TreeNodeArgument>;
  return node.folder instanceof vscode.Uri ? (node as TreeNodeArgument) : undefined;
}

/**
 * Handler of `creditLens.openDashboard`: the dashboard of the run a Runs-view node belongs to (on the
 * steps a Problems quick fix names), or of the current run folder (picked like every other command's).
 */
export function openDashboardCommand(
  show: ShowDashboard,
  chooseFolder: ChooseRunFolder = pickRunFolder,
): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    // A Runs-view node names its folder, which chooseFolder takes (and makes current).
    const folder = await chooseFolder(argument, 'Credit Lens: Open Run Dashboard');
    if (folder) show(folder, treeNode(argument)?.run?.runId, stepsArgument(argument));
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
