import * as vscode from 'vscode';
import type { AuditResult } from '../engine/audit/auditJob';
import type { IndexJobResult } from '../engine/indexJob';
import { ActiveIndex } from './activeIndex';
import { BackgroundIndexing } from './backgroundIndexing';
import { registerAllCommands } from './commandIds';
import type { SeverityByKind } from './diagnostics/flagDiagnostics';
import { CreditLensViews } from './tree/creditLensViews';
import { IndexJobs } from './indexJobs';
import { RunSummaryPanel } from './panels/runSummaryPanel';

/** Entry point: builds the services, registers the commands, returns. Everything is owned by `context`. */
export function activate(context: vscode.ExtensionContext): void {
  const log = own(context, vscode.window.createOutputChannel('Credit Lens', { log: true }));
  const jobs = own(context, new IndexJobs());
  const summaryPanel = own(context, new RunSummaryPanel(context.extensionUri, log));
  const workerScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'indexWorker.js').fsPath;
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const storage = context.storageUri ? { storageDir: context.storageUri.fsPath } : {};
  const active = own(context, new ActiveIndex(log));
  const severities = (): SeverityByKind => vscode.workspace.getConfiguration('creditLens').get<SeverityByKind>('audit.severity', {});
  const views = own(context, new CreditLensViews({ index: () => active.get(), log, severities }));
  const showFolder = (folder: vscode.Uri): void => {
    active.show(folder);
    views.refresh();
  };
  const background = own(context, new BackgroundIndexing({ log, workerScript, onIndexed: (folder) => showFolder(folder) }));
  const onIndexed = (folder: vscode.Uri, result: IndexJobResult): void => {
    showFolder(folder);
    background.follow(folder, result);
  };
  const onAudited = (folder: vscode.Uri, result: AuditResult): void => {
    log.info(`Audit of ${folder.fsPath}: ${result.runs.reduce((n, r) => n + r.flags.length, 0)} flag(s)`);
    showFolder(folder);
  };
  registerAllCommands(context, { log, workerScript, jobs, summaryPanel, version, onAudited, onIndexed, ...storage });
  const shown = active.showFirstIndexedWorkspaceFolder();
  if (shown) background.follow(shown);
  views.refresh();
}

/** Nothing to do: `context.subscriptions` disposes everything, which cancels running passes. */
export function deactivate(): void {
  // Intentionally empty.
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, disposable: T): T {
  context.subscriptions.push(disposable);
  return disposable;
}
