import * as vscode from 'vscode';
import { indexFolder, indexRunFolderCommand, type IndexRunFolderDeps } from './commands/indexRunFolderCommand';
import { showRunSummaryCommand } from './commands/showRunSummaryCommand';
import type { IndexJobs } from './indexJobs';
import type { RunSummaryPanel } from './panels/runSummaryPanel';

/**
 * Every command the extension contributes; `package.json#contributes.commands` lists exactly these
 * (a unit test checks it), and {@link registerAllCommands} registers each one.
 */
export const commandIds = {
  /** "Credit Lens: Index Run Folder", handled by {@link indexRunFolderCommand}. */
  indexRunFolder: 'creditLens.indexRunFolder',
  /** "Credit Lens: Show Run Summary", handled by {@link showRunSummaryCommand}. */
  showRunSummary: 'creditLens.showRunSummary',
} as const;

export type CommandId = (typeof commandIds)[keyof typeof commandIds];

/** What the command handlers share, built once in `activate`. */
export interface CommandServices {
  readonly log: vscode.LogOutputChannel;
  /** The built `dist/indexWorker.js`. */
  readonly workerScript: string;
  readonly jobs: IndexJobs;
  readonly summaryPanel: RunSummaryPanel;
}

/** Registers every command of {@link commandIds}; each registration goes to `context.subscriptions`. */
export function registerAllCommands(context: vscode.ExtensionContext, services: CommandServices): void {
  const { log, workerScript, jobs, summaryPanel } = services;
  const showSummary: IndexRunFolderDeps['showSummary'] = (indexed) => {
    summaryPanel.show(indexed);
  };
  const indexDeps: IndexRunFolderDeps = { log, workerScript, jobs, showSummary };
  const register = (id: CommandId, handler: (argument?: unknown) => Promise<void>): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  };
  register(commandIds.indexRunFolder, indexRunFolderCommand(indexDeps));
  register(commandIds.showRunSummary, showRunSummaryCommand({ log, showSummary, indexFolder: (folder) => indexFolder(folder, indexDeps) }));
}
