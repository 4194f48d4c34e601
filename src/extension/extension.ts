import * as vscode from 'vscode';
import { CompareService } from '../engine/compare/compareService';
import { registerAllCommands, type CommandServices } from './commandIds';
import { configSection, loadConfigOrReport } from './config';
import { IndexJobs } from './indexJobs';
import { ComparePanel } from './panels/comparePanel';
import { DashboardPanel, type IndexChange } from './panels/dashboardPanel';
import { EpisodeDiffPanel, type EpisodeDiffPanelDeps } from './panels/episodeDiffPanel';
import { EpisodePanel } from './panels/episodePanel';
import { diffWithCommand } from './commands/openEpisodeDiffCommand';
import { GroupPanel } from './panels/groupPanel';
import { RunSummaryPanel } from './panels/runSummaryPanel';
import { activateRunViews } from './runViews';
import { registerLmTools, type LmToolsDeps } from './lmTools/lmTools';
import type { RunFolders } from './runFolders';
import { configuredIndexPath } from './config';
import { sqliteDriverKind } from '../store/database';
import type { ViewMethod } from '../protocol/viewData';

/** Entry point: builds the services, the views, registers the commands, returns. Everything is owned by `context`. */
export function activate(context: vscode.ExtensionContext): void {
  const log = own(context, vscode.window.createOutputChannel('Credit Lens', { log: true }));
  logSqliteDriver(log);
  const jobs = own(context, new IndexJobs());
  const workerScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'indexWorker.js').fsPath;
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const storage = context.storageUri ? { storageDir: context.storageUri.fsPath } : {};
  const { refreshPanels, ...panels } = createPanels(context, log, storage);
  refreshOnEvaluatorChange(context, panels.episodePanel);
  const hooks = activateRunViews(context, log, workerScript, refreshPanels);
  own(context, registerLmTools(lmToolsDeps(hooks.runFolders, log, storage.storageDir)));
  registerAllCommands(context, {
    log,
    workerScript,
    jobs,
    ...panels,
    version,
    onCredited: refreshPanels,
    ...hooks,
    ...storage,
  });
}

/** The webview panels, each with its serializer, and the refresh of every one of them after an index or credit change. */
type Panels = Pick<
  CommandServices,
  'summaryPanel' | 'episodePanel' | 'dashboardPanel' | 'groupPanel' | 'comparePanel' | 'diffPanel'
> & { readonly refreshPanels: (folder: vscode.Uri, change?: IndexChange) => void };

/** Makes the panels; each opens the others through the closures below (they are all made before any is shown). */
function createPanels(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  storage: { storageDir?: string },
): Panels {
  const config = (): ReturnType<typeof loadConfigOrReport> => loadConfigOrReport(log);
  const host = { extensionUri: context.extensionUri, log, memory: context.workspaceState };
  const summaryPanel = own(context, new RunSummaryPanel(host));
  const refreshPanels = (folder: vscode.Uri, change?: IndexChange): void => {
    dashboardPanel.refresh(folder, change);
    for (const panel of [episodePanel, groupPanel, comparePanel, diff.panel]) panel.refresh(folder);
  };
  const openEpisode = (folder: vscode.Uri, episodeId: number, method?: ViewMethod): void => {
    episodePanel.show(folder, episodeId, method);
  };
  const openGroup = (folder: vscode.Uri, runId: number, group: string, method?: ViewMethod): void => {
    groupPanel.show(folder, runId, group, method);
  };
  const diff = createDiffPanel(context, { ...host, config, ...storage, openEpisode });
  const episodePanel = own(
    context,
    new EpisodePanel({
      ...host,
      config,
      onCredited: refreshPanels,
      secrets: context.secrets,
      openGroup,
      openDashboard: (folder, runId, steps) => {
        dashboardPanel.show(folder, runId, steps);
      },
      diffWith: diff.diffWith,
      ...storage,
    }),
  );
  const dashboardPanel = own(
    context,
    new DashboardPanel({
      ...host,
      config,
      onCredited: refreshPanels,
      secrets: context.secrets,
      openEpisode,
      openGroup,
      ...storage,
    }),
  );
  const groupPanel = own(
    context,
    new GroupPanel({ ...host, config, openEpisode, diffWith: diff.diffWith, ...storage }),
  );
  const comparePanel = own(
    context,
    new ComparePanel({
      ...host,
      config,
      comparer: (db, root) => new CompareService(db, { root }),
      openEpisode,
      ...storage,
    }),
  );
  for (const panel of [episodePanel, dashboardPanel, summaryPanel, groupPanel, comparePanel])
    own(context, panel.registerSerializer());
  return { summaryPanel, episodePanel, dashboardPanel, groupPanel, comparePanel, diffPanel: diff.panel, refreshPanels };
}

/**
 * The episode diff panel (with its serializer), and the "Diff with…" of the Episode and group views:
 * it asks for the other episode and opens the pair in that panel.
 */
function createDiffPanel(
  context: vscode.ExtensionContext,
  deps: EpisodeDiffPanelDeps,
): { panel: EpisodeDiffPanel; diffWith: (folder: vscode.Uri, episodeId: number, method: ViewMethod) => void } {
  const panel = own(context, new EpisodeDiffPanel(deps));
  own(context, panel.registerSerializer());
  const pick = diffWithCommand({
    ...deps,
    show: (a, b, method) => {
      panel.show(a, b, method);
    },
  });
  return {
    panel,
    diffWith: (folder, episodeId, method) => {
      void pick(folder, episodeId, method);
    },
  };
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

/** The language-model tools read the folder the views follow (the current one, else the first indexed). */
function lmToolsDeps(folders: RunFolders, log: vscode.LogOutputChannel, storageDir: string | undefined): LmToolsDeps {
  return {
    currentFolder: () => folders.current() ?? folders.indexed()[0],
    indexPath: (root) => configuredIndexPath(root, storageDir),
    log,
  };
}

/** Nothing to do: `context.subscriptions` disposes everything, which cancels running passes. */
export function deactivate(): void {
  // Intentionally empty.
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, disposable: T): T {
  context.subscriptions.push(disposable);
  return disposable;
}
