import * as vscode from 'vscode';
import type { BrowseEpisode, BrowseGroup, BrowseRun, BrowseStep, BrowseStepRange } from '../../store/browseRepository';
import { commandIds } from '../commandIds';
import { Disposable } from '../lifecycle';
import { nodeId, runsTreeItem } from './runsTreeItems';
import {
  defaultMaxChildren,
  noIndexNode,
  readError,
  type BrowseIndex,
  type BrowseIndexSource,
  type UnopenedReason,
} from './treeItems';
import { pageSpans, rangeWidth } from './treePaging';

/** A run folder the Runs view lists when several have an index. */
export interface RunFolderEntry {
  readonly folder: vscode.Uri;
  /** Its name relative to the workspace. */
  readonly label: string;
  /** True for the folder the Flags view, the diagnostics and the commands follow. */
  readonly current: boolean;
}

/** A node whose children can be split into pages: the folder (or root) listing runs, a step, a group. */
export type PagedNode = Extract<RunsNode, { kind: 'folder' | 'step' | 'group' }> | undefined;

/**
 * A node of the Runs view: (run folder →) run → [step ranges →] training step → group → episode,
 * plus message leaves and pages of a long level. Every node below a folder carries it, so each level
 * reads the right index.
 */
export type RunsNode =
  | { readonly kind: 'message'; readonly text: string; readonly command?: vscode.Command }
  | ({ readonly kind: 'folder' } & RunFolderEntry)
  // `run` is replaced in place by refreshChanged(): VS Code knows tree elements by identity.
  | { readonly kind: 'run'; readonly folder: vscode.Uri; run: BrowseRun }
  | {
      readonly kind: 'steps';
      readonly folder: vscode.Uri;
      readonly run: BrowseRun;
      readonly range: BrowseStepRange;
      /** Width of the sub-ranges it holds; undefined when it lists its steps. */
      readonly childWidth: number | undefined;
    }
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
    }
  | {
      /** Items `offset + 1 … offset + count` of its parent's level (runs, groups or episodes). */
      readonly kind: 'page';
      readonly parent: PagedNode;
      readonly offset: number;
      readonly count: number;
      /** Items per page at this depth (part of the id, so a growing last page keeps its id). */
      readonly size: number;
    };

export interface RunsTreeOptions {
  /** The current index; undefined shows a placeholder that offers to index a folder. */
  readonly index: BrowseIndexSource;
  /** Why the current folder's index is not open, shown instead of the placeholder's first line. */
  readonly unopened?: UnopenedReason;
  /** The indexed run folders; with more than one, the view lists them above their runs. */
  readonly folders?: () => readonly RunFolderEntry[];
  /** The index of a listed folder other than the current one. */
  readonly indexOf?: (folder: vscode.Uri) => BrowseIndex | undefined;
  /** Children per level before the level is split into pages or step ranges (default 500). */
  readonly maxChildren?: number;
  /** Steps per step range of a run with more than `maxChildren` steps (default 100, at most `maxChildren`). */
  readonly stepsPerRange?: number;
}

/** Below it: the first answer, which needs no index (Credit Table from the Trace Files…). */
export const traceTableMessage = 'Or read who earned the reward straight from the trace files (no index).';

/** A level's size and a reader of `limit` of its items from `offset` (one indexed query). */
interface Level {
  readonly total: number;
  readonly read: (offset: number, limit: number) => RunsNode[];
}

/**
 * The "Runs" view (`creditLens.runs`). Reads the index on each expansion, one query per expansion:
 * a run with more than `maxChildren` steps lists step ranges ("steps 0–99"), and a level with more
 * than `maxChildren` runs, groups or episodes lists pages of them, so every episode is a few clicks
 * away. `refresh()` re-reads the whole tree; `refreshChanged()` (after a live-tail pass) only the
 * runs whose totals changed.
 */
export class RunsTreeProvider extends Disposable implements vscode.TreeDataProvider<RunsNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<RunsNode | RunsNode[] | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly maxChildren: number;
  private readonly stepsPerRange: number;
  /** The run nodes handed to VS Code for the current index, by id. */
  private readonly shownRuns = new Map<string, Extract<RunsNode, { kind: 'run' }>>();

  constructor(private readonly options: RunsTreeOptions) {
    super();
    this.maxChildren = Math.max(2, options.maxChildren ?? defaultMaxChildren);
    this.stepsPerRange = Math.max(2, Math.min(options.stepsPerRange ?? 100, this.maxChildren));
  }

  /** Re-reads the whole tree (after an index pass or an audit). */
  refresh(): void {
    this.shownRuns.clear();
    this._onDidChangeTreeData.fire(undefined);
  }

  /**
   * Re-reads only the runs of the current index whose totals changed (VS Code then re-reads their
   * expanded levels); nothing when none did, the whole tree when runs came or went. Returns the
   * number of runs refreshed (-1: the whole tree).
   */
  refreshChanged(): number {
    let runs: BrowseRun[];
    try {
      runs = this.options.index()?.repository.runs() ?? [];
    } catch {
      runs = [];
    }
    const shown = [...this.shownRuns.values()];
    const byId = new Map(runs.map((run) => [run.runId, run]));
    if (shown.length === 0 || shown.length !== runs.length || shown.some((node) => !byId.has(node.run.runId))) {
      this.refresh();
      return -1;
    }
    const changed = shown.filter((node) => {
      const fresh = byId.get(node.run.runId);
      if (!fresh || JSON.stringify(fresh) === JSON.stringify(node.run)) return false;
      node.run = fresh;
      return true;
    });
    if (changed.length > 0) this._onDidChangeTreeData.fire(changed);
    return changed.length;
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
        ? node.kind === 'folder'
          ? [noIndexNode(this.options.unopened?.(node.folder))]
          : []
        : [
            noIndexNode(this.options.unopened?.()),
            {
              kind: 'message',
              text: traceTableMessage,
              command: { command: commandIds.creditTableFromTraces, title: 'Credit Table from the Trace Files…' },
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
    const folder = folderOf(node);
    if (!folder) return this.options.index();
    const shown = this.options.index();
    return shown?.folder.fsPath === folder.fsPath ? shown : this.options.indexOf?.(folder);
  }

  private childrenOf(index: BrowseIndex, node?: RunsNode): RunsNode[] {
    if (!node || node.kind === 'folder' || node.kind === 'step' || node.kind === 'group') {
      const level = this.level(index, node);
      if ((!node || node.kind === 'folder') && level.total === 0)
        return [{ kind: 'message', text: 'The index holds no runs yet.' }];
      return this.span(node, 0, undefined, level);
    }
    switch (node.kind) {
      case 'run':
        return this.stepLevel(index, node);
      case 'steps':
        return node.childWidth === undefined
          ? index.repository
              .stepsInRange(node.run.runId, node.range.from, node.range.to)
              .map((step) => ({ kind: 'step', folder: index.folder, run: node.run, step }))
          : this.ranges(index, node.run, node.range.from, node.range.to, node.childWidth);
      case 'page':
        return this.span(node.parent, node.offset, node.count, this.level(index, node.parent));
      default:
        return [];
    }
  }

  /** The runs of a folder, the groups of a step or the episodes of a group. */
  private level(index: BrowseIndex, parent: PagedNode): Level {
    const { folder, repository } = index;
    if (!parent || parent.kind === 'folder') {
      const runs = repository.runs();
      return {
        total: runs.length,
        read: (offset, limit) => runs.slice(offset, offset + limit).map((run) => this.runNode(folder, run)),
      };
    }
    if (parent.kind === 'step') {
      const { run, step } = parent;
      const groups = repository.groups(run.runId, step.step);
      return {
        total: groups.length,
        read: (offset, limit) =>
          groups.slice(offset, offset + limit).map((group) => ({ kind: 'group', folder, run, step, group })),
      };
    }
    const { run, step, group } = parent;
    return {
      total: group.episodes,
      read: (offset, limit) =>
        repository
          .episodes(run.runId, step.step, group.group, limit, offset)
          .map((episode) => ({ kind: 'episode', folder, run, step, group, episode })),
    };
  }

  /** Items `offset …` of a level (to its end when `count` is undefined), as pages when they are too many. */
  private span(parent: PagedNode, offset: number, count: number | undefined, level: Level): RunsNode[] {
    const length = count ?? level.total - offset;
    if (length <= this.maxChildren) return level.read(offset, count ?? this.maxChildren);
    return pageSpans(offset, length, this.maxChildren).map((page) => ({ kind: 'page', parent, ...page }));
  }

  /** A run's steps, or its step ranges (after the episodes without a step) when it has too many. */
  private stepLevel(index: BrowseIndex, node: Extract<RunsNode, { kind: 'run' }>): RunsNode[] {
    const { folder, repository } = index;
    const { run } = node;
    if (run.steps <= this.maxChildren)
      return repository.steps(run.runId).map((step) => ({ kind: 'step', folder, run, step }));
    const noStep = repository.noStep(run.runId);
    const span = repository.stepSpan(run.runId);
    const room = this.maxChildren - (noStep ? 1 : 0);
    const ranges = span ? this.ranges(index, run, span.from, span.to, rangeWidth(span, this.stepsPerRange, room)) : [];
    return noStep ? [{ kind: 'step', folder, run, step: noStep }, ...ranges] : ranges;
  }

  private ranges(index: BrowseIndex, run: BrowseRun, from: number, to: number, width: number): RunsNode[] {
    const childWidth = width > this.stepsPerRange ? width / this.stepsPerRange : undefined;
    return index.repository
      .stepRanges(run.runId, width, from, to)
      .map((range) => ({ kind: 'steps', folder: index.folder, run, range, childWidth }));
  }

  private runNode(folder: vscode.Uri, run: BrowseRun): RunsNode {
    const node = { kind: 'run' as const, folder, run };
    if (this.options.index()?.folder.fsPath === folder.fsPath) this.shownRuns.set(nodeId(node) ?? '', node);
    return node;
  }
}

/** The folder whose index a node reads; undefined for the root level. */
function folderOf(node: RunsNode): vscode.Uri | undefined {
  if (node.kind === 'page') return node.parent ? folderOf(node.parent) : undefined;
  return 'folder' in node ? node.folder : undefined;
}
