import * as vscode from 'vscode';
import type { EpisodeRef, ViewMethod } from '../../protocol/viewData';
import { EpisodeLookup } from '../../store/episodeLookup';
import { GroupViewRepository } from '../../store/groupViewRepository';
import { isRecord } from '../../protocol/ipc';
import { loadConfigOrReport, type CreditLensConfig } from '../config';
import { openPanelIndex, type PanelIndex } from '../panels/panelIndex';
import { folderLabel } from '../runFolders';
import { description, rewardText } from '../tree/treeItems';
import { pickEpisodeId } from './episodeIdPick';
import { chooseLocation, type AskEpisodeId } from './openEpisodeCommand';
import { pickRunFolder, type ChooseRunFolder } from './pickRunFolder';
import { reportJobFailure } from './recomputeCreditCommand';

/** Opens the diff panel on episode `a` beside episode `b`; the EpisodeDiffPanel's `show`. */
export type ShowDiff = (a: EpisodeRef, b: EpisodeRef, method?: ViewMethod) => void;

export interface EpisodeDiffCommandDeps {
  readonly log: vscode.LogOutputChannel;
  readonly storageDir?: string;
  readonly show: ShowDiff;
  /** Finds the run folder from the palette; the workspace-folder picker unless given. */
  readonly chooseFolder?: ChooseRunFolder;
  /** Asks for an episode id (the Open Episode by Id pick unless a test injects another). */
  readonly askId?: (suggest: Parameters<AskEpisodeId>[0], title: string) => ReturnType<AskEpisodeId>;
  /** The settings; loadConfigOrReport unless a test injects them. */
  readonly config?: () => CreditLensConfig | undefined;
}

const title = 'Credit Lens: Diff Episodes';

/** One side as the command's argument names it: a run folder (a Uri or its path) and an episode (row id or trace id). */
interface SideArgument {
  readonly run: vscode.Uri | string;
  readonly episodeId: number | string;
}

function sideArgument(value: unknown): SideArgument | undefined {
  if (!isRecord(value)) return undefined;
  const { run, episodeId } = value;
  const runOk = run instanceof vscode.Uri || (typeof run === 'string' && run !== '');
  const idOk =
    (typeof episodeId === 'number' && Number.isSafeInteger(episodeId) && episodeId >= 0) ||
    (typeof episodeId === 'string' && episodeId !== '');
  return runOk && idOk ? (value as unknown as SideArgument) : undefined;
}

/**
 * Handler of `creditLens.openEpisodeDiff`: with `{a: {run, episodeId}, b: {run, episodeId}}` (a run
 * folder as a Uri or a path; an episode as its index row id or its trace id) opens the diff of the
 * two; from the palette (or a folder's context menu) asks for the folder, episode A by id, then B
 * among A's GRPO group's other rollouts or by id. An id no episode has is said, never guessed.
 */
export function openEpisodeDiffCommand(deps: EpisodeDiffCommandDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const a = isRecord(argument) ? sideArgument(argument['a']) : undefined;
    const b = isRecord(argument) ? sideArgument(argument['b']) : undefined;
    if (a && b) {
      const refA = await resolveSide(deps, a);
      const refB = refA && (await resolveSide(deps, b));
      if (refA && refB) deps.show(refA, refB);
      return;
    }
    const folder = await (deps.chooseFolder ?? pickRunFolder)(argument, title);
    if (folder === undefined) return;
    await withIndex(deps, folder.fsPath, async (index) => {
      const first = await askById(deps, index, `${title}: episode A`);
      const second = first === undefined ? undefined : await pickPartner(deps, index, first);
      if (first !== undefined && second !== undefined)
        deps.show({ folder: index.root, episodeId: first }, { folder: index.root, episodeId: second });
    });
  };
}

/**
 * The "Diff with…" of the Episode and group views: asks for the episode to put beside
 * `episodeId` of `folder` (its group's other rollouts first, or any episode by id) and opens the diff
 * under `method`.
 */
export function diffWithCommand(
  deps: EpisodeDiffCommandDeps,
): (folder: vscode.Uri, episodeId: number, method: ViewMethod) => Promise<void> {
  return (folder, episodeId, method) =>
    withIndex(deps, folder.fsPath, async (index) => {
      const other = await pickPartner(deps, index, episodeId);
      if (other !== undefined)
        deps.show({ folder: index.root, episodeId }, { folder: index.root, episodeId: other }, method);
    });
}

/** Runs `work` with the folder's index open read-only (closed after); a missing index is reported. */
async function withIndex(
  deps: EpisodeDiffCommandDeps,
  root: string,
  work: (index: PanelIndex) => Promise<void>,
): Promise<void> {
  const config = (deps.config ?? (() => loadConfigOrReport(deps.log)))();
  if (config === undefined) return;
  let index: PanelIndex;
  try {
    index = openPanelIndex(root, config, deps.storageDir);
  } catch (error) {
    await reportJobFailure(vscode.Uri.file(root), error, deps.log, 'search the index of');
    return;
  }
  try {
    await work(index);
  } finally {
    index.db.close();
  }
}

/** A side of the argument as an episode of the index (a trace id looked up); undefined, said, when there is none. */
async function resolveSide(deps: EpisodeDiffCommandDeps, side: SideArgument): Promise<EpisodeRef | undefined> {
  const root = side.run instanceof vscode.Uri ? side.run.fsPath : side.run;
  const { episodeId } = side;
  if (typeof episodeId === 'number') return { folder: root, episodeId };
  let found: EpisodeRef | undefined;
  await withIndex(deps, root, async (index) => {
    const id = await locate(index, episodeId);
    if (id !== undefined) found = { folder: root, episodeId: id };
  });
  return found;
}

/** The row id of trace id `externalId` (a pick when several runs hold it); undefined, said, when none does. */
async function locate(index: PanelIndex, externalId: string): Promise<number | undefined> {
  const located = new EpisodeLookup(index.db).byExternalId(externalId);
  if (located.length === 0) {
    void vscode.window.showInformationMessage(
      `No episode with id "${externalId}" in the index of ${folderLabel(vscode.Uri.file(index.root))}.`,
    );
    return undefined;
  }
  return (await chooseLocation(located, title))?.episodeId;
}

async function askById(
  deps: EpisodeDiffCommandDeps,
  index: PanelIndex,
  pickTitle: string,
): Promise<number | undefined> {
  const lookup = new EpisodeLookup(index.db);
  const ask = deps.askId ?? ((suggest, t) => pickEpisodeId(suggest, { title: t }));
  const choice = await ask((prefix) => lookup.byPrefix(prefix), pickTitle);
  if (choice === undefined) return undefined;
  return choice.kind === 'suggested' ? choice.episode.episodeId : locate(index, choice.id);
}

interface PartnerItem extends vscode.QuickPickItem {
  /** The rollout's row id; null for "another episode by id". */
  readonly episodeId: number | null;
}

/** The episode to put beside `episodeId`: another rollout of its GRPO group, or any episode by id. */
async function pickPartner(
  deps: EpisodeDiffCommandDeps,
  index: PanelIndex,
  episodeId: number,
): Promise<number | undefined> {
  const groups = new GroupViewRepository(index.db);
  const group = groups.groupOfEpisode(episodeId);
  const rollouts =
    group?.group == null ? [] : groups.rollouts(group.runId, group.group).filter((r) => r.episodeId !== episodeId);
  if (rollouts.length === 0) return askById(deps, index, `${title}: episode B`);
  const items: PartnerItem[] = [
    ...rollouts.map((r) => ({
      label: r.externalId,
      description: description(r.sample === null ? undefined : `sample ${String(r.sample)}`, rewardText(r.reward)),
      episodeId: r.episodeId,
    })),
    { label: '$(search) Another episode by id…', episodeId: null },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `${title}: episode B`,
    placeHolder: `Another rollout of GRPO group ${group?.group ?? ''}, or any episode by id`,
  });
  if (picked === undefined) return undefined;
  return picked.episodeId ?? askById(deps, index, `${title}: episode B`);
}
