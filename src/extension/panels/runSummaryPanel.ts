import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { IndexSummary } from '../../core/indexSummary';
import { readIndexSummary } from '../../engine/indexJob';
import type { IndexLocation } from '../../engine/indexLocation';
import { checkedField } from '../../protocol/ipc';
import { isFolderPath } from '../../protocol/viewData';
import {
  DidChangeSummaryNotification,
  OpenIssueCommand,
  ReadyCommand,
  type OpenIssueParams,
  type RunSummaryData,
  type RunSummaryViewState,
} from '../../protocol/runSummaryPanel';
import { PanelHost, type PanelHostDeps } from './panelHost';
import { errorText, type WebviewSession } from './webviewSession';

/** An indexed folder and what its index holds: what the panel shows. */
export interface IndexedFolder {
  readonly folder: vscode.Uri;
  readonly indexPath: string;
  readonly summary: IndexSummary;
  readonly cancelled: boolean;
}

/** Reads an existing index's summary (throws when the folder has none); `readIndexSummary` unless a test injects another. */
export type ReadSummary = (root: string) => { index: IndexLocation; summary: IndexSummary };

export interface RunSummaryPanelDeps extends PanelHostDeps {
  readonly readSummary?: ReadSummary;
}

/** What a Run Summary panel shows: one indexed folder, named as its webview's saved state names it. */
type SummaryPlace = Pick<RunSummaryViewState, 'folder'>;

/** The summary as the webview receives it: plain JSON, display strings prepared here. */
export function toRunSummaryData({ folder, indexPath, summary, cancelled }: IndexedFolder): RunSummaryData {
  return {
    folderName: basename(folder.fsPath) || folder.fsPath,
    folderPath: folder.fsPath,
    indexPath,
    cancelled,
    summary,
  };
}

/**
 * "Credit Lens: Run Summary": at most one webview panel, created on first `show()` and again after
 * the user closes it, restored after a reload by reading the saved folder's index again. The host is
 * the source of truth: the webview asks for data with ReadyCommand on every load and gets the
 * latest summary back.
 */
export class RunSummaryPanel extends PanelHost<SummaryPlace> {
  static readonly viewType = 'creditLens.runSummary';
  private shown: IndexedFolder | undefined;

  constructor(private readonly deps: RunSummaryPanelDeps) {
    super(
      {
        viewType: RunSummaryPanel.viewType,
        entry: { script: 'main', style: 'summary.css', title: 'Credit Lens: Run Summary' },
      },
      deps,
    );
  }

  /** Shows `indexed` in the panel, opening or revealing it. */
  show(indexed: IndexedFolder): void {
    if (this.isDisposed) return;
    this.shown = indexed;
    this.open({ folder: indexed.folder.fsPath });
  }

  protected placeOf(saved: unknown): SummaryPlace | undefined {
    const folder = checkedField(saved, 'folder', isFolderPath);
    return folder === undefined ? undefined : { folder };
  }

  /** The folder shown already (`show` set it), else its index read again (a restored panel). */
  protected point({ folder }: SummaryPlace): boolean {
    if (this.shown?.folder.fsPath === folder) return true;
    try {
      const read = (this.deps.readSummary ?? readIndexSummary)(folder);
      this.shown = {
        folder: vscode.Uri.file(folder),
        indexPath: read.index.path,
        summary: read.summary,
        cancelled: false,
      };
      return true;
    } catch (error) {
      this.deps.log.warn(`Run Summary: cannot read the index of ${folder}: ${errorText(error)}`);
      return false;
    }
  }

  protected wire(session: WebviewSession): void {
    session.onReady(ReadyCommand, () => {
      this.post();
    });
    session.onCommand(OpenIssueCommand, (params) => this.openIssue(params));
  }

  protected post(): void {
    const { session, shown } = this;
    if (!session || !shown) return;
    const data = toRunSummaryData(shown);
    session.panel.title = `Run Summary: ${data.folderName}`;
    session.notify(DidChangeSummaryNotification, data);
  }

  protected forget(): void {
    this.shown = undefined;
  }

  /** Opens a problem's file at its line; only problems of the shown summary, never arbitrary paths. */
  private async openIssue({ file, line }: OpenIssueParams): Promise<void> {
    const shown = this.shown;
    if (!shown?.summary.errors.some((issue) => issue.file === file && issue.line === line)) {
      this.deps.log.warn(`Run Summary: refused to open ${file}:${line}, which the summary does not list`);
      return;
    }
    const position = new vscode.Position(Math.max(0, line - 1), 0);
    try {
      await vscode.window.showTextDocument(vscode.Uri.joinPath(shown.folder, ...file.split('/')), {
        selection: new vscode.Range(position, position),
        preview: true,
      });
    } catch (error) {
      this.deps.log.warn(`Run Summary: cannot open ${file}:${line}: ${errorText(error)}`);
      void vscode.window.showWarningMessage(`Credit Lens cannot open ${file}: ${errorText(error)}`);
    }
  }
}
