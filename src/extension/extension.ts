import * as vscode from 'vscode';
import { registerAllCommands } from './commandIds';
import { configSection, loadConfigOrReport } from './config';
import { IndexJobs } from './indexJobs';
import { DashboardPanel, type IndexChange } from './panels/dashboardPanel';
import { EpisodePanel } from './panels/episodePanel';
import { RunSummaryPanel } from './panels/runSummaryPanel';
import { activateRunViews } from './runViews';
import { sqliteDriverKind } from '../store/database';

/** Entry point: builds the services, the views, registers the commands, returns. Everything is owned by `context`. */
export function activate(context: vscode.ExtensionContext): void {
  const log = own(context, vscode.window.createOutputChannel('Credit Lens', { log: true }));
  logSqliteDriver(log);
  const jobs = own(context, new IndexJobs());
  const summaryPanel = own(context, new RunSummaryPanel(context.extensionUri, log));
  const workerScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'indexWorker.js').fsPath;
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const storage = context.storageUri ? { storageDir: context.storageUri.fsPath } : {};
  const config = (): ReturnType<typeof loadConfigOrReport> => loadConfigOrReport(log);
  const refreshPanels = (folder: vscode.Uri, change?: IndexChange): void => {
    dashboardPanel.refresh(folder, change);
    episodePanel.refresh(folder);
  };
  const episodePanel = own(
    context,
    new EpisodePanel({
      extensionUri: context.extensionUri,
      log,
      config,
      onCredited: refreshPanels,
      memory: context.workspaceState,
      secrets: context.secrets,
      ...storage,
    }),
  );
  const dashboardPanel = own(
    context,
    new DashboardPanel({
      extensionUri: context.extensionUri,
      log,
      config,
      onCredited: refreshPanels,
      secrets: context.secrets,
      openEpisode: (folder, episodeId) => {
        episodePanel.show(folder, episodeId);
      },
      ...storage,
    }),
  );
  registerPanelSerializers(context, episodePanel, dashboardPanel);
  refreshOnEvaluatorChange(context, episodePanel);
  const hooks = activateRunViews(context, log, workerScript, refreshPanels);
  registerAllCommands(context, {
    log,
    workerScript,
    jobs,
    summaryPanel,
    episodePanel,
    dashboardPanel,
    version,
    onCredited: refreshPanels,
    ...hooks,
    ...storage,
  });
}

/**
 * Says which SQLite binding serves the indexes in this extension host — better-sqlite3, or
 * node:sqlite where the runtime cannot load its addon (Node 22 desktop, Node 24 servers) — or why
 * neither can, before any view needs one.
 */
function logSqliteDriver(log: vscode.LogOutputChannel): void {
  const electron = process.versions['electron'];
  const runtime = `Node ${process.version}, ABI ${process.versions.modules}${electron ? `, Electron ${electron}` : ''}`;
  try {
    log.info(`SQLite driver: ${sqliteDriverKind()} (${runtime})`);
  } catch (error) {
    log.error(error instanceof Error ? error.message : String(error));
  }
}

/** Brings the Episode and Dashboard panels back after a reload, from the state their webviews saved. */
function registerPanelSerializers(
  context: vscode.ExtensionContext,
  episodePanel: EpisodePanel,
  dashboardPanel: DashboardPanel,
): void {
  own(
    context,
    vscode.window.registerWebviewPanelSerializer(EpisodePanel.viewType, {
      deserializeWebviewPanel: (panel, state) => {
        episodePanel.restore(panel, state);
        return Promise.resolve();
      },
    }),
  );
  own(
    context,
    vscode.window.registerWebviewPanelSerializer(DashboardPanel.viewType, {
      deserializeWebviewPanel: (panel, state) => {
        dashboardPanel.restore(panel, state);
        return Promise.resolve();
      },
    }),
  );
}

/**
 * Re-sends the shown episode when the settings or the workspace trust change: the Episode view's
 * evaluator line and Recompute menu (a replay offered or not) follow them without a reload.
 */
function refreshOnEvaluatorChange(context: vscode.ExtensionContext, episodePanel: EpisodePanel): void {
  own(
    context,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(configSection)) episodePanel.refresh();
    }),
  );
  own(
    context,
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      episodePanel.refresh();
    }),
  );
}

/** Nothing to do: `context.subscriptions` disposes everything, which cancels running passes. */
export function deactivate(): void {
  // Intentionally empty.
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, disposable: T): T {
  context.subscriptions.push(disposable);
  return disposable;
}
