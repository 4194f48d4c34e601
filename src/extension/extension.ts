import * as vscode from 'vscode';
import { registerAllCommands } from './commandIds';
import { IndexJobs } from './indexJobs';
import { RunSummaryPanel } from './panels/runSummaryPanel';
import { activateRunViews } from './runViews';

/** Entry point: builds the services, the views, registers the commands, returns. Everything is owned by `context`. */
export function activate(context: vscode.ExtensionContext): void {
  const log = own(context, vscode.window.createOutputChannel('Credit Lens', { log: true }));
  const jobs = own(context, new IndexJobs());
  const summaryPanel = own(context, new RunSummaryPanel(context.extensionUri, log));
  const workerScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'indexWorker.js').fsPath;
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const storage = context.storageUri ? { storageDir: context.storageUri.fsPath } : {};
  const hooks = activateRunViews(context, log, workerScript);
  registerAllCommands(context, { log, workerScript, jobs, summaryPanel, version, ...hooks, ...storage });
}

/** Nothing to do: `context.subscriptions` disposes everything, which cancels running passes. */
export function deactivate(): void {
  // Intentionally empty.
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, disposable: T): T {
  context.subscriptions.push(disposable);
  return disposable;
}
