import * as vscode from 'vscode';
import type { BrowseEpisode, BrowseGroup, BrowseRun, BrowseStep } from '../../store/browseRepository';
import { commandIds } from '../commandIds';
import { Disposable } from '../lifecycle';
import { runsTreeItem } from './runsTreeItems';
import { capped, defaultMaxChildren, readError, type BrowseIndex, type BrowseIndexSource } from './treeItems';

/** A run folder the Runs view lists when several have an index. */
export interface RunFolderEntry {
  readonly folder: vscode.Uri;
  /** Its name relative to the workspace. */
  readonly label: string;
  /** True for the folder the Flags view, the diagnostics and the commands follow. */
  readonly current: boolean;
}

/**
 * A node of the Runs view: (run folder →) run → training step → group → episode, plus message and
 * "more" leaves. Every node below a folder carries it, so each level reads the right index.
 */
export type RunsNode =
  | { readonly kind: 'message'; readonly text: string; readonly command?: vscode.Command }
  | { readonly kind: 'more'; readonly hidden: number; readonly noun: string }
  | ({ readonly kind: 'folder' } & RunFolderEntry)
  | { readonly kind: 'run'; readonly folder: vscode.Uri; readonly run: BrowseRun }
  | { readonly kind: 'step'; readonly folder: vscode.Uri; readonly run: BrowseRun; readonly step: BrowseStep }
  | {
      readonly kind: 'group';
      readonly folder: vscode.Uri;
      readonly run: BrowseRun;
      readonly step: BrowseStep;
      readonly group: BrowseGroup;
    }
  | {
      readonly kind: 'episode';
      readonly folder: vscode.Uri;
      readonly run: BrowseRun;
      readonly step: BrowseStep;
      readonly group: BrowseGroup;
      readonly episode: BrowseEpisode;
    };

export interface RunsTreeOptions {
  /** The current index; undefined shows a placeholder that offers to index a folder. */
  readonly index: BrowseIndexSource;
  /** The indexed run folders; with more than one, the view lists them above their runs. */
  readonly folders?: () => readonly RunFolderEntry[];
  /** The index of a listed folder other than the current one. */
  readonly indexOf?: (folder: vscode.Uri) => BrowseIndex | undefined;
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
    const folders = node ? [] : (this.options.folders?.() ?? []);
    if (folders.length > 1) return folders.map((entry) => ({ kind: 'folder', ...entry }));
    const index = node ? this.indexOfNode(node) : this.options.index();
    if (!index)
      return node
        ? []
        : [
            {
              kind: 'message',
              text: noIndexMessage,
              command: { command: commandIds.indexRunFolder, title: 'Index Run Folder' },
            },
          ];
    try {
      return this.childrenOf(index, node);
    } catch (error) {
      return [{ kind: 'message', text: readError(error) }];
    }
  }

  /** The index a node's children come from: its folder's. */
  private indexOfNode(node: RunsNode): BrowseIndex | undefined {
    if (!('folder' in node)) return undefined;
    const shown = this.options.index();
    return shown?.folder.fsPath === node.folder.fsPath ? shown : this.options.indexOf?.(node.folder);
  }

  private childrenOf({ folder, repository }: BrowseIndex, node?: RunsNode): RunsNode[] {
    if (!node || node.kind === 'folder') {
      const runs = repository.runs();
      return runs.length === 0
        ? [{ kind: 'message', text: 'The index holds no runs yet.' }]
        : this.cap(
            runs.map((run) => ({ kind: 'run', folder, run })),
            'run',
          );
    }
    switch (node.kind) {
      case 'run':
        return this.cap(
          repository.steps(node.run.runId).map((step) => ({ kind: 'step', folder, run: node.run, step })),
          'step',
        );
      case 'step':
        return this.cap(
          repository
            .groups(node.run.runId, node.step.step)
            .map((group) => ({ kind: 'group', folder, run: node.run, step: node.step, group })),
          'group',
        );
      case 'group': {
        const episodes = repository.episodes(node.run.runId, node.step.step, node.group.group, this.maxChildren);
        const hidden = node.group.episodes - episodes.length;
        const nodes: RunsNode[] = episodes.map((episode) => ({
          kind: 'episode',
          folder,
          run: node.run,
          step: node.step,
          group: node.group,
          episode,
        }));
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
