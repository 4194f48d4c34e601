import * as vscode from 'vscode';
import { formatNumber } from '../diagnostics/flagText';
import type { RunsNode } from './runsTreeProvider';
import { description, escapedTooltip, flagBadge, messageItem, plural, rewardText } from './treeItems';

type NodeOf<K extends RunsNode['kind']> = Extract<RunsNode, { kind: K }>;

const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
const flagged = (flags: number, icon: string): vscode.ThemeIcon => new vscode.ThemeIcon(flags > 0 ? 'warning' : icon);
const reward = (value: number | null): string => (value === null ? 'none logged' : formatNumber(value));

/** The tree item of a Runs view node: label, description with the flag badge, escaped tooltip, context value. */
export function runsTreeItem(node: RunsNode): vscode.TreeItem {
  switch (node.kind) {
    case 'message':
      return messageItem(node.text, node.command);
    case 'page':
      return pageItem(node);
    case 'folder':
      return folderItem(node);
    case 'run':
      return runItem(node);
    case 'steps':
      return rangeItem(node);
    case 'step':
      return stepItem(node);
    case 'group':
      return groupItem(node);
    case 'episode':
      return episodeItem(node);
  }
}

/**
 * The stable id of a node (what VS Code keeps expansion and selection by): its path of folder, run,
 * step range, step, group and episode; a page adds its bounds to its parent's. Messages have none.
 */
export function nodeId(node: RunsNode): string | undefined {
  switch (node.kind) {
    case 'message':
      return undefined;
    case 'folder':
      return `folder:${node.folder.fsPath}`;
    case 'run':
      return `run:${node.folder.fsPath}:${node.run.runId}`;
    case 'steps':
      return `steps:${node.folder.fsPath}:${node.run.runId}:${node.range.from}:${node.range.to}`;
    case 'step':
      return `step:${node.folder.fsPath}:${node.run.runId}:${node.step.step ?? ''}`;
    case 'group':
      return `group:${node.folder.fsPath}:${node.run.runId}:${node.step.step ?? ''}:${node.group.group ?? ''}`;
    case 'episode':
      return `episode:${node.folder.fsPath}:${node.run.runId}:${node.episode.episodeId}`;
    case 'page':
      return `page:${(node.parent && nodeId(node.parent)) ?? 'root'}:${node.size}:${node.offset}`;
  }
}

/** Nouns of the items a page holds, by the kind of its parent. */
const pageNoun = { root: 'runs', folder: 'runs', step: 'groups', group: 'episodes' } as const;

/** A page of a long level: `episodes 501–1000`. */
function pageItem(node: NodeOf<'page'>): vscode.TreeItem {
  const noun = pageNoun[node.parent?.kind ?? 'root'];
  const item = new vscode.TreeItem(`${noun} ${node.offset + 1}–${node.offset + node.count}`, collapsed);
  item.id = nodeId(node);
  item.contextValue = 'creditLens.page';
  item.iconPath = new vscode.ThemeIcon('list-unordered');
  item.tooltip = escapedTooltip(`${noun} ${node.offset + 1} to ${node.offset + node.count}`, [
    [
      'order',
      noun === 'episodes' ? 'by sample index, then as indexed' : noun === 'groups' ? 'by group id' : 'by folder',
    ],
  ]);
  return item;
}

/** What a counted level's item shows: its totals in the description, the same in the tooltip. */
interface Counted {
  readonly label: string;
  readonly context: string;
  readonly icon: string;
  readonly flags: number;
  readonly meanReward: number | null;
  /** Description parts before the mean reward and the flag badge. */
  readonly counts: readonly string[];
  readonly title: string;
  readonly rows: readonly (readonly [string, string])[];
}

/** A collapsed item of a run, step range, step or group: counts · mean reward · ⚑ flags. */
function countedItem(node: RunsNode, c: Counted): vscode.TreeItem {
  const item = new vscode.TreeItem(c.label, collapsed);
  item.id = nodeId(node);
  item.contextValue = c.context;
  item.iconPath = flagged(c.flags, c.icon);
  item.description = description(...c.counts, rewardText(c.meanReward, 'mean reward'), flagBadge(c.flags));
  item.tooltip = escapedTooltip(c.title, c.rows);
  return item;
}

/** A range of training steps of a run with many steps: `steps 0–99`. */
function rangeItem(node: NodeOf<'steps'>): vscode.TreeItem {
  const { run, range } = node;
  return countedItem(node, {
    label: `steps ${range.from}–${range.to}`,
    context: 'creditLens.stepRange',
    icon: 'history',
    flags: range.flags,
    meanReward: range.meanReward,
    counts: [plural(range.steps, 'step'), plural(range.episodes, 'episode')],
    title: `${run.name}, training steps ${range.from} to ${range.to}`,
    rows: [
      ['steps with episodes', String(range.steps)],
      ['episodes', String(range.episodes)],
      ['mean reward', reward(range.meanReward)],
      ['flags covering these steps', String(range.flags)],
    ],
  });
}

/** A run folder; the current one is expanded and says so. Choosing it makes it current (CreditLensViews). */
function folderItem({ folder, label, current }: NodeOf<'folder'>): vscode.TreeItem {
  const item = new vscode.TreeItem(label, current ? vscode.TreeItemCollapsibleState.Expanded : collapsed);
  item.id = nodeId({ kind: 'folder', folder, label, current });
  item.contextValue = 'creditLens.runFolder';
  item.iconPath = new vscode.ThemeIcon(current ? 'folder-active' : 'folder');
  item.description = current ? 'current' : '';
  item.tooltip = escapedTooltip(`Run folder ${label}`, [
    ['path', folder.fsPath],
    ['commands act on it', current ? 'yes' : 'once chosen here'],
  ]);
  return item;
}

function runItem(node: NodeOf<'run'>): vscode.TreeItem {
  const { run } = node;
  return countedItem(node, {
    label: run.name,
    context: 'creditLens.run',
    icon: 'beaker',
    flags: run.flags,
    meanReward: run.meanReward,
    counts: [plural(run.episodes, 'episode'), plural(run.steps, 'step')],
    title: `Run ${run.name}`,
    rows: [
      ['folder', run.root === '' ? '(the indexed folder)' : run.root],
      ['mechanism', run.mechanism ?? 'not declared'],
      ['episodes', String(run.episodes)],
      ['training steps', String(run.steps)],
      ['mean reward', reward(run.meanReward)],
      ['flags', String(run.flags)],
    ],
  });
}

function stepItem(node: NodeOf<'step'>): vscode.TreeItem {
  const { run, step } = node;
  return countedItem(node, {
    label: step.step === null ? 'no step' : `step ${step.step}`,
    context: 'creditLens.step',
    icon: 'history',
    flags: step.flags,
    meanReward: step.meanReward,
    counts: [plural(step.episodes, 'episode'), plural(step.groups, 'group')],
    title: `${run.name}, training step ${step.step ?? '(none logged)'}`,
    rows: [
      ['episodes', String(step.episodes)],
      ['groups', String(step.groups)],
      ['mean reward', reward(step.meanReward)],
      ['flags covering this step', String(step.flags)],
    ],
  });
}

function groupItem(node: NodeOf<'group'>): vscode.TreeItem {
  const { run, step, group } = node;
  return countedItem(node, {
    label: group.group ?? 'no group',
    context: 'creditLens.group',
    icon: 'layers',
    flags: group.flags,
    meanReward: group.meanReward,
    counts: [plural(group.episodes, 'episode')],
    title: `Group ${group.group ?? '(none logged)'}`,
    rows: [
      ['run', run.name],
      ['training step', String(step.step ?? 'none logged')],
      ['episodes', String(group.episodes)],
      ['mean reward', reward(group.meanReward)],
      ['flags', String(group.flags)],
    ],
  });
}

function episodeItem(node: NodeOf<'episode'>): vscode.TreeItem {
  const { run, episode } = node;
  const item = new vscode.TreeItem(episode.externalId, vscode.TreeItemCollapsibleState.None);
  item.id = nodeId(node);
  item.contextValue = 'creditLens.episode';
  item.iconPath = flagged(episode.flags, 'circle-outline');
  item.description = description(rewardText(episode.reward), plural(episode.agents, 'agent'), flagBadge(episode.flags));
  item.tooltip = escapedTooltip(`Episode ${episode.externalId}`, [
    ['run', run.name],
    ['sample', episode.sample === null ? 'not logged' : String(episode.sample)],
    ['reward', reward(episode.reward)],
    ['agents', String(episode.agents)],
    ['trace', `${episode.uri}:${episode.line}`],
    ['flags', String(episode.flags)],
  ]);
  // A click opens the Episode view; the trace line is one context-menu entry away (Reveal Trace Line).
  item.command = { command: 'creditLens.openEpisodeView', title: 'Open Episode View', arguments: [node] };
  return item;
}
