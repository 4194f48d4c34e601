import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { IndexSummary } from '../../core/indexSummary';
import { isIpcMessage } from '../../protocol/ipc';
import {
  DidChangeSummaryNotification,
  OpenIssueCommand,
  ReadyCommand,
  type OpenIssueParams,
  type RunSummaryData,
} from '../../protocol/runSummaryPanel';
import { buildWebviewHtml, webviewOptions } from '../html';
import { Disposable, disposeAll, toDisposable, type DisposableLike } from '../lifecycle';
import { createNonce } from '../nonce';

/** An indexed folder and what its index holds: what the panel shows. */
export interface IndexedFolder {
  readonly folder: vscode.Uri;
  readonly indexPath: string;
  readonly summary: IndexSummary;
  readonly cancelled: boolean;
}

interface Session {
  readonly panel: vscode.WebviewPanel;
  /** The webview's script has sent ReadyCommand; posts before that would be lost. */
  ready: boolean;
  readonly listeners: DisposableLike[];
}

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
 * the user closes it. The host is the source of truth: the webview asks for data with ReadyCommand
 * on every load and gets the latest summary back.
 */
export class RunSummaryPanel extends Disposable {
  static readonly viewType = 'creditLens.runSummary';
  private session: Session | undefined;
  private shown: IndexedFolder | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(
      toDisposable(() => {
        this.session?.panel.dispose();
      }),
    );
  }

  /** Shows `indexed` in the panel, opening or revealing it. */
  show(indexed: IndexedFolder): void {
    if (this.isDisposed) return;
    this.shown = indexed;
    const session = this.session ?? this.open();
    session.panel.title = `Run Summary: ${toRunSummaryData(indexed).folderName}`;
    session.panel.reveal();
    this.post(session);
  }

  private open(): Session {
    const panel = vscode.window.createWebviewPanel(
      RunSummaryPanel.viewType,
      'Credit Lens: Run Summary',
      vscode.ViewColumn.Active,
      webviewOptions(this.extensionUri),
    );
    const session: Session = { panel, ready: false, listeners: [] };
    panel.webview.html = buildWebviewHtml({
      webview: panel.webview,
      extensionUri: this.extensionUri,
      nonce: createNonce(),
      script: ['dist', 'webview', 'main.js'],
      styles: [['media', 'summary.css']],
      title: 'Credit Lens: Run Summary',
    });
    session.listeners.push(
      panel.webview.onDidReceiveMessage((message: unknown) => {
        this.onMessage(session, message);
      }),
      panel.onDidDispose(() => {
        disposeAll(session.listeners);
        if (this.session === session) this.session = undefined;
      }),
    );
    this.session = session;
    return session;
  }

  private onMessage(session: Session, message: unknown): void {
    if (!isIpcMessage(message)) {
      this.log.warn('Run Summary: ignored a webview message without a method');
      return;
    }
    switch (true) {
      case ReadyCommand.is(message):
        session.ready = true;
        this.post(session);
        break;
      case OpenIssueCommand.is(message):
        void this.openIssue(message.params);
        break;
      default:
        this.log.warn(`Run Summary: ignored webview message ${message.method} (unknown method or invalid params)`);
    }
  }

  private post(session: Session): void {
    if (!session.ready || this.shown === undefined) return;
    void session.panel.webview.postMessage(DidChangeSummaryNotification.with(toRunSummaryData(this.shown)));
  }

  /** Opens a problem's file at its line; only problems of the shown summary, never arbitrary paths. */
  private async openIssue({ file, line }: OpenIssueParams): Promise<void> {
    const shown = this.shown;
    if (!shown?.summary.errors.some((issue) => issue.file === file && issue.line === line)) {
      this.log.warn(`Run Summary: refused to open ${file}:${line}, which the summary does not list`);
      return;
    }
    const position = new vscode.Position(Math.max(0, line - 1), 0);
    try {
      await vscode.window.showTextDocument(vscode.Uri.joinPath(shown.folder, ...file.split('/')), {
        selection: new vscode.Range(position, position),
        preview: true,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn(`Run Summary: cannot open ${file}:${line}: ${reason}`);
      void vscode.window.showWarningMessage(`Credit Lens cannot open ${file}: ${reason}`);
    }
  }
}
