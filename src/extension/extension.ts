import * as vscode from 'vscode';
import { registerAllCommands } from './commandIds';
import { IndexJobs } from './indexJobs';
import { RunSummaryPanel } from './panels/runSummaryPanel';

/** Entry point: builds the services, registers the commands, returns. Everything is owned by `context`. */
export function activate(context: vscode.ExtensionContext): void {
  const log = own(context, vscode.window.createOutputChannel('Credit Lens', { log: true }));
  const jobs = own(context, new IndexJobs());
  const summaryPanel = own(context, new RunSummaryPanel(context.extensionUri, log));
  const workerScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'indexWorker.js').fsPath;
  registerAllCommands(context, { log, workerScript, jobs, summaryPanel });
}

/** Nothing to do: `context.subscriptions` disposes everything, which cancels running passes. */
export function deactivate(): void {
  // Intentionally empty.
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, disposable: T): T {
  context.subscriptions.push(disposable);
  return disposable;
}
