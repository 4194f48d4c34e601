import * as vscode from 'vscode';
import { DiagnosticsPublisher } from '../diagnostics/diagnosticsPublisher';
import type { SeverityByKind } from '../diagnostics/flagDiagnostics';
import { Disposable } from '../lifecycle';
import { FlagsTreeProvider } from './flagsTreeProvider';
import { RunsTreeProvider, type RunFolderEntry, type RunsNode } from './runsTreeProvider';
import type { BrowseIndex, BrowseIndexSource, UnopenedReason } from './treeItems';

/** The view ids contributed in `package.json#contributes.views.creditLens`. */
export const viewIds = {
  runs: 'creditLens.runs',
  flags: 'creditLens.flags',
} as const;

export interface CreditLensViewsOptions {
  /** The open index of the workspace's run folder, or undefined while there is none. */
  readonly index: BrowseIndexSource;
  /** Why the current folder's index is not open (an older Credit Lens wrote it and it is being upgraded, ...). */
  readonly unopened?: UnopenedReason;
  /** The indexed run folders, listed above their runs when there are several. */
  readonly folders?: () => readonly RunFolderEntry[];
  /** The index of a listed folder other than the current one. */
  readonly indexOf?: (folder: vscode.Uri) => BrowseIndex | undefined;
  /** Called when the user selects a Runs-view node of a folder (the folder itself, a run, an episode, ...). */
  readonly onSelect?: (folder: vscode.Uri) => void;
  /** Diagnostic severity per flag kind, read on each refresh (e.g. from the settings). */
  readonly severities?: () => SeverityByKind;
  readonly log?: Pick<vscode.LogOutputChannel, 'warn'>;
}

/**
 * Owns the Runs and Flags tree views and the trace-line diagnostics. Call `refresh()` after an
 * index pass, an audit or opening another index: the views re-read and the diagnostics are replaced.
 */
export class CreditLensViews extends Disposable {
  readonly runs: RunsTreeProvider;
  readonly flags: FlagsTreeProvider;
  readonly diagnostics: DiagnosticsPublisher;

  constructor(private readonly options: CreditLensViewsOptions) {
    super();
    const { folders, indexOf, unopened } = options;
    this.runs = this._register(
      new RunsTreeProvider({
        index: options.index,
        ...(unopened ? { unopened } : {}),
        ...(folders ? { folders } : {}),
        ...(indexOf ? { indexOf } : {}),
      }),
    );
    this.flags = this._register(new FlagsTreeProvider({ index: options.index, ...(unopened ? { unopened } : {}) }));
    this.diagnostics = this._register(new DiagnosticsPublisher(options.severities));
    const runsView = this._register(
      vscode.window.createTreeView(viewIds.runs, { treeDataProvider: this.runs, showCollapseAll: true }),
    );
    this._register(runsView.onDidChangeSelection(({ selection }) => this.selected(selection)));
    this._register(
      vscode.window.createTreeView(viewIds.flags, { treeDataProvider: this.flags, showCollapseAll: true }),
    );
  }

  private selected(selection: readonly RunsNode[]): void {
    const [node] = selection;
    if (node && 'folder' in node) this.options.onSelect?.(node.folder);
  }

  /** Re-reads both views and republishes the index's flags and parse errors as diagnostics. */
  refresh(): void {
    this.runs.refresh();
    this.flags.refresh();
    this.publishDiagnostics();
  }

  /**
   * After a live-tail pass, which appends episodes and parse errors but never touches flags: the
   * Runs view re-reads only the runs whose totals changed, the Flags view is left alone.
   */
  refreshAfterPass(): void {
    this.runs.refreshChanged();
    this.publishDiagnostics();
  }

  private publishDiagnostics(): void {
    const index = this.options.index();
    if (!index) return;
    try {
      const { repository } = index;
      const flags = repository.runs().flatMap((run) => repository.flags(run.runId));
      this.diagnostics.publish(index.folder, flags, repository.parseErrors());
    } catch (error) {
      // The views show the read error themselves; the previous diagnostics stay until a read succeeds.
      this.options.log?.warn(
        `Credit Lens diagnostics not updated: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
