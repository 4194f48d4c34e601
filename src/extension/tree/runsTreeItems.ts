import * as vscode from 'vscode';
import { formatNumber } from '../diagnostics/flagText';
import type { RunsNode } from './runsTreeProvider';
import { description, escapedTooltip, flagBadge, messageItem, moreItem, plural, rewardText } from './treeItems';

type NodeOf<K extends RunsNode['kind']> = Extract<RunsNode, { kind: K }>;

const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
const flagged = (flags: number, icon: string): vscode.ThemeIcon => new vscode.ThemeIcon(flags > 0 ? 'warning' : icon);
const reward = (value: number | null): string => (value === null ? 'none logged' : formatNumber(value));

/** The tree item of a Runs view node: label, description with the flag badge, escaped tooltip, context value. */
export function runsTreeItem(node: RunsNode): vscode.TreeItem {
  switch (node.kind) {
    case 'message':
      return messageItem(node.text, node.command);
    case 'more':
      return moreItem(node.hidden, node.noun);
    case 'folder':
      return folderItem(node);
    case 'run':
      return runItem(node);
    case 'step':
      return stepItem(node);
    case 'group':
      return groupItem(node);
    case 'episode':
      return episodeItem(node);
  }
}

/** A run folder; the current one is expanded and says so. Choosing it makes it current (CreditLensViews). */
function folderItem({ folder, label, current }: NodeOf<'folder'>): vscode.TreeItem {
  const item = new vscode.TreeItem(label, current ? vscode.TreeItemCollapsibleState.Expanded : collapsed);
  item.id = `folder:${folder.fsPath}`;
  item.contextValue = 'creditLens.runFolder';
  item.iconPath = new vscode.ThemeIcon(current ? 'folder-active' : 'folder');
  item.description = current ? 'current' : '';
  item.tooltip = escapedTooltip(`Run folder ${label}`, [
    ['path', folder.fsPath],
    ['commands act on it', current ? 'yes' : 'once chosen here'],
  ]);
  return item;
}

function runItem({ folder, run }: NodeOf<'run'>): vscode.TreeItem {
  const item = new vscode.TreeItem(run.name, collapsed);
  item.id = `run:${folder.fsPath}:${run.runId}`;
  item.contextValue = 'creditLens.run';
  item.iconPath = flagged(run.flags, 'beaker');
  item.description = description(
    plural(run.episodes, 'episode'),
    plural(run.steps, 'step'),
    rewardText(run.meanReward, 'mean reward'),
    flagBadge(run.flags),
  );
  item.tooltip = escapedTooltip(`Run ${run.name}`, [
    ['folder', run.root === '' ? '(the indexed folder)' : run.root],
    ['mechanism', run.mechanism ?? 'not declared'],
    ['episodes', String(run.episodes)],
    ['training steps', String(run.steps)],
    ['mean reward', reward(run.meanReward)],
    ['flags', String(run.flags)],
  ]);
  return item;
}

function stepItem({ folder, run, step }: NodeOf<'step'>): vscode.TreeItem {
  const item = new vscode.TreeItem(step.step === null ? 'no step' : `step ${step.step}`, collapsed);
  item.id = `step:${folder.fsPath}:${run.runId}:${step.step ?? ''}`;
  item.contextValue = 'creditLens.step';
  item.iconPath = flagged(step.flags, 'history');
  item.description = description(
    plural(step.episodes, 'episode'),
    plural(step.groups, 'group'),
    rewardText(step.meanReward, 'mean reward'),
    flagBadge(step.flags),
  );
  item.tooltip = escapedTooltip(`${run.name}, training step ${step.step ?? '(none logged)'}`, [
    ['episodes', String(step.episodes)],
    ['groups', String(step.groups)],
    ['mean reward', reward(step.meanReward)],
    ['flags covering this step', String(step.flags)],
  ]);
  return item;
}

function groupItem({ folder, run, step, group }: NodeOf<'group'>): vscode.TreeItem {
  const item = new vscode.TreeItem(group.group ?? 'no group', collapsed);
  item.id = `group:${folder.fsPath}:${run.runId}:${step.step ?? ''}:${group.group ?? ''}`;
  item.contextValue = 'creditLens.group';
  item.iconPath = flagged(group.flags, 'layers');
  item.description = description(
    plural(group.episodes, 'episode'),
    rewardText(group.meanReward, 'mean reward'),
    flagBadge(group.flags),
  );
  item.tooltip = escapedTooltip(`Group ${group.group ?? '(none logged)'}`, [
    ['run', run.name],
    ['training step', String(step.step ?? 'none logged')],
    ['episodes', String(group.episodes)],
    ['mean reward', reward(group.meanReward)],
    ['flags', String(group.flags)],
  ]);
  return item;
}

function episodeItem(node: NodeOf<'episode'>): vscode.TreeItem {
  const { folder, run, episode } = node;
  const item = new vscode.TreeItem(episode.externalId, vscode.TreeItemCollapsibleState.None);
  item.id = `episode:${folder.fsPath}:${run.runId}:${episode.episodeId}`;
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
