import * as vscode from 'vscode';
import type { BrowseFlag, BrowseRun } from '../../store/browseRepository';
import { flagEvidenceRows, type EvidenceRow } from '../../engine/report/flagEvidence';
import { flagHeadline, flagMessage, flagScope } from '../diagnostics/flagText';
import { Disposable } from '../lifecycle';
import {
  capped,
  defaultMaxChildren,
  description,
  escapedTooltip,
  flagBadge,
  messageItem,
  moreItem,
  noIndexNode,
  plural,
  readError,
  traceLineCommand,
  type BrowseIndex,
  type BrowseIndexSource,
  type UnopenedReason,
} from './treeItems';

/** A node of the Flags view: run → flag → evidence rows in words (a window of steps expands to its figures). */
export type FlagsNode =
  | { readonly kind: 'message'; readonly text: string; readonly command?: vscode.Command }
  | { readonly kind: 'more'; readonly hidden: number; readonly noun: string }
  | { readonly kind: 'run'; readonly run: BrowseRun }
  | { readonly kind: 'flag'; readonly folder: vscode.Uri; readonly run: BrowseRun; readonly flag: BrowseFlag }
  | { readonly kind: 'evidence'; readonly id: string; readonly row: EvidenceRow };

export interface FlagsTreeOptions {
  readonly index: BrowseIndexSource;
  /** Why the current folder's index is not open, shown instead of the placeholder. */
  readonly unopened?: UnopenedReason;
  /** Children per level before a "… N more" item (default 500). */
  readonly maxChildren?: number;
}

/** The "Flags" view (`creditLens.flags`): the audit's verdicts per run, each with its evidence; selecting one opens its trace line. */
export class FlagsTreeProvider extends Disposable implements vscode.TreeDataProvider<FlagsNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<FlagsNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly maxChildren: number;

  constructor(private readonly options: FlagsTreeOptions) {
    super();
    this.maxChildren = options.maxChildren ?? defaultMaxChildren;
  }

  /** Re-reads the whole tree (after an audit or an index pass). */
  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  getTreeItem(node: FlagsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'message':
        return messageItem(node.text, node.command);
      case 'more':
        return moreItem(node.hidden, node.noun);
      case 'run':
        return runItem(node.run);
      case 'flag':
        return flagItem(node);
      case 'evidence':
        return evidenceItem(node);
    }
  }

  getChildren(node?: FlagsNode): FlagsNode[] {
    const index = this.options.index();
    if (!index) return node ? [] : [noIndexNode(this.options.unopened?.())];
    try {
      return this.cap(this.childrenOf(index, node), node?.kind === 'run' ? 'flag' : 'row');
    } catch (error) {
      return [{ kind: 'message', text: readError(error) }];
    }
  }

  private childrenOf({ folder, repository }: BrowseIndex, node?: FlagsNode): FlagsNode[] {
    if (!node) {
      const runs = repository.runs();
      return runs.length === 0
        ? [{ kind: 'message', text: 'The index holds no runs yet.' }]
        : runs.map((run) => ({ kind: 'run', run }));
    }
    switch (node.kind) {
      case 'run':
        return repository.flags(node.run.runId).map((flag) => ({ kind: 'flag', folder, run: node.run, flag }));
      case 'flag':
        return rowsOf(`flag:${node.flag.flagId}`, flagEvidenceRows(node.flag.evidence));
      case 'evidence':
        return rowsOf(node.id, node.row.children ?? []);
      default:
        return [];
    }
  }

  private cap(nodes: readonly FlagsNode[], noun: string): FlagsNode[] {
    const { shown, hidden } = capped(nodes, this.maxChildren);
    return hidden > 0 ? [...shown, { kind: 'more', hidden, noun }] : [...shown];
  }
}

function rowsOf(parentId: string, rows: readonly EvidenceRow[]): FlagsNode[] {
  return rows.map((row, i) => ({ kind: 'evidence', id: `${parentId}/${i}`, row }));
}

function runItem(run: BrowseRun): vscode.TreeItem {
  const item = new vscode.TreeItem(
    run.name,
    run.flags > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `flags-run:${run.runId}`;
  item.contextValue = 'creditLens.run';
  item.iconPath = new vscode.ThemeIcon(run.flags > 0 ? 'warning' : 'pass');
  item.description = run.flags > 0 ? description(plural(run.flags, 'flag'), flagBadge(run.flags)) : 'no flags';
  item.tooltip = escapedTooltip(`Run ${run.name}`, [
    ['flags', String(run.flags)],
    ['episodes', String(run.episodes)],
  ]);
  return item;
}

function flagItem({ folder, run, flag }: Extract<FlagsNode, { kind: 'flag' }>): vscode.TreeItem {
  const hasEvidence = flagEvidenceRows(flag.evidence).length > 0;
  const item = new vscode.TreeItem(
    `${flag.kind} · ${flag.agent ?? 'team'}`,
    hasEvidence ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `flag:${flag.flagId}`;
  item.contextValue = 'creditLens.flag';
  item.iconPath = new vscode.ThemeIcon(flag.kind === 'silent' ? 'info' : 'warning');
  item.description = description(flagScope(flag), flagHeadline(flag));
  const where = flag.location ? `${flag.location.uri}:${flag.location.line}` : 'no trace line';
  item.tooltip = escapedTooltip(flagMessage(flag), [
    ['run', run.name],
    ['trace', where],
  ]);
  if (flag.location) item.command = traceLineCommand(folder, flag.location.uri, flag.location.line);
  return item;
}

function evidenceItem({ id, row }: Extract<FlagsNode, { kind: 'evidence' }>): vscode.TreeItem {
  const expandable = (row.children?.length ?? 0) > 0;
  const item = new vscode.TreeItem(
    row.label,
    expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = id;
  item.contextValue = 'creditLens.evidence';
  item.description = row.value;
  item.tooltip = escapedTooltip(row.label, [['value', row.value]]);
  return item;
}
