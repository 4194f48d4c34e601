import * as vscode from 'vscode';
import type { BrowseRepository } from '../../store/browseRepository';
import { plural } from '../../core/plural';
import { formatNumber } from '../diagnostics/flagText';
import { commandIds } from '../commandIds';

/** An open index as the tree views read it: the indexed folder and its listings. */
export interface BrowseIndex {
  readonly folder: vscode.Uri;
  readonly repository: BrowseRepository;
}

/** Where the views get the current index; undefined while the folder has none (the integrator opens it). */
export type BrowseIndexSource = () => BrowseIndex | undefined;

/**
 * Why a folder's index is found but not open (being upgraded, unreadable): the shown folder's, or
 * `folder`'s when given; undefined otherwise.
 */
export type UnopenedReason = (folder?: vscode.Uri) => string | undefined;

/** Placeholder shown while the workspace has no index. */
export const noIndexMessage = 'No Credit Lens index yet: click to index a run folder.';

/** The first root item of a view without an open index: why its index is not open, else that there is none; both offer to index. */
export function noIndexNode(unopened: string | undefined): {
  readonly kind: 'message';
  readonly text: string;
  readonly command: vscode.Command;
} {
  return {
    kind: 'message',
    text: unopened ?? noIndexMessage,
    command: { command: commandIds.indexRunFolder, title: 'Index Run Folder' },
  };
}

/** Children shown per level before a "… N more" item. */
export const defaultMaxChildren = 500;

/** `⚑ 2`, or undefined when there is no flag. */
export function flagBadge(flags: number): string | undefined {
  return flags > 0 ? `⚑ ${flags}` : undefined;
}

/** `reward 0.833`, or `no reward` when none is logged. */
export function rewardText(reward: number | null, label = 'reward'): string {
  return reward === null ? 'no reward' : `${label} ${formatNumber(reward)}`;
}

/** `1 episode`, `3 episodes` (core/plural.ts, the one pluralising helper). */
export { plural } from '../../core/plural';

/** Joins the defined parts with ` · `. */
export function description(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined && part !== '').join(' · ');
}

/**
 * A tooltip of `key: value` lines built with `appendText` only, so trace-derived text (ids, agent
 * names, evidence) is escaped and never rendered as Markdown or HTML.
 */
export function escapedTooltip(title: string, rows: readonly (readonly [string, string])[]): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  tooltip.appendText([title, ...rows.map(([key, value]) => `${key}: ${value}`)].join('\n'));
  return tooltip;
}

/** Opens the trace file at a 1-based line (the built-in `vscode.open` command with a selection). */
export function traceLineCommand(folder: vscode.Uri, uri: string, line: number): vscode.Command {
  const at = new vscode.Position(Math.max(0, line - 1), 0);
  return {
    command: 'vscode.open',
    title: 'Open Trace Line',
    arguments: [vscode.Uri.joinPath(folder, uri), { selection: new vscode.Range(at, at) }],
  };
}

/** A leaf with a message (no index yet, empty level, read error), optionally clickable. */
export function messageItem(text: string, command?: vscode.Command): vscode.TreeItem {
  const item = new vscode.TreeItem(text, vscode.TreeItemCollapsibleState.None);
  item.contextValue = 'creditLens.message';
  item.iconPath = new vscode.ThemeIcon('info');
  if (command) item.command = command;
  return item;
}

/** The "… N more" leaf closing a capped level. */
export function moreItem(hidden: number, noun: string): vscode.TreeItem {
  const item = new vscode.TreeItem(`… ${plural(hidden, `more ${noun}`)}`, vscode.TreeItemCollapsibleState.None);
  item.contextValue = 'creditLens.more';
  return item;
}

/** The first `max` items and how many were left out. */
export function capped<T>(items: readonly T[], max: number): { shown: readonly T[]; hidden: number } {
  return { shown: items.slice(0, max), hidden: Math.max(0, items.length - max) };
}

/** Why a listing failed, for a message item. */
export function readError(error: unknown): string {
  return `Could not read the Credit Lens index: ${error instanceof Error ? error.message : String(error)}`;
}
