import * as vscode from 'vscode';
import type { BrowseEpisode, BrowseGroup, BrowseRun, BrowseStep } from '../../store/browseRepository';
import { commandIds } from '../commandIds';
import { Disposable } from '../lifecycle';
import { runsTreeItem } from './runsTreeItems';
import { capped, defaultMaxChildren, readError, type BrowseIndex, type BrowseIndexSource } from './treeItems';

/** A node of the Runs view: run → training step → group → episode, plus message and "more" leaves. */
export type RunsNode =
  | { readonly kind: 'message'; readonly text: string; readonly command?: vscode.Command }
  | { readonly kind: 'more'; readonly hidden: number; readonly noun: string }
  | { readonly kind: 'run'; readonly folder: vscode.Uri; readonly run: BrowseRun }
  | { readonly kind: 'step'; readonly run: BrowseRun; readonly step: BrowseStep }
  | { readonly kind: 'group'; readonly run: BrowseRun; readonly step: BrowseStep; readonly group: BrowseGroup }
  | { readonly kind: 'episode'; readonly folder: vscode.Uri; readonly run: BrowseRun; readonly step: BrowseStep; readonly group: BrowseGroup; readonly episode: BrowseEpisode };

export interface RunsTreeOptions {
  /** The current index; undefined shows a placeholder that offers to index a folder. */
  readonly index: BrowseIndexSource;
  /** Children per level before a "… N more" item (default 500). */
  readonly maxChildren?: number;
}

/** Placeholder shown while the workspace has no index. */
export const noIndexMessage = 'No Credit Lens index yet: click to index a run folder.';

/**
 * The "Runs" view (`creditLens.runs`). Reads the index on each expansion, so `refresh()` after an
 * index pass is enough to show new episodes.
 */
export class RunsTreeProvider extends Disposable implements vscode.TreeDataProvider<RunsNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<RunsNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly maxChildren: number;

  constructor(private readonly options: RunsTreeOptions) {
    super();
    this.maxChildren = options.maxChildren ?? defaultMaxChildren;
  }

  /** Re-reads the whole tree (after an index pass or an audit). */
  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    return runsTreeItem(node);
  }

  getChildren(node?: RunsNode): RunsNode[] {
    const index = this.options.index();
    if (!index) return node ? [] : [{ kind: 'message', text: noIndexMessage, command: { command: commandIds.indexRunFolder, title: 'Index Run Folder' } }];
    try {
      return this.childrenOf(index, node);
    } catch (error) {
      return [{ kind: 'message', text: readError(error) }];
    }
  }

  private childrenOf({ folder, repository }: BrowseIndex, node?: RunsNode): RunsNode[] {
    if (!node) {
      const runs = repository.runs();
      return runs.length === 0 ? [{ kind: 'message', text: 'The index holds no runs yet.' }] : this.cap(runs.map((run) => ({ kind: 'run', folder, run })), 'run');
    }
    switch (node.kind) {
      case 'run':
        return this.cap(repository.steps(node.run.runId).map((step) => ({ kind: 'step', run: node.run, step })), 'step');
      case 'step':
        return this.cap(repository.groups(node.run.runId, node.step.step).map((group) => ({ kind: 'group', run: node.run, step: node.step, group })), 'group');
      case 'group': {
        const episodes = repository.episodes(node.run.runId, node.step.step, node.group.group, this.maxChildren);
        const hidden = node.group.episodes - episodes.length;
        const nodes: RunsNode[] = episodes.map((episode) => ({ kind: 'episode', folder, run: node.run, step: node.step, group: node.group, episode }));
        return hidden > 0 ? [...nodes, { kind: 'more', hidden, noun: 'episode' }] : nodes;
      }
      default:
        return [];
    }
  }

  private cap(nodes: readonly RunsNode[], noun: string): RunsNode[] {
    const { shown, hidden } = capped(nodes, this.maxChildren);
    return hidden > 0 ? [...shown, { kind: 'more', hidden, noun }] : [...shown];
  }
}
