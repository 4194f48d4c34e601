import * as vscode from 'vscode';
import type { AuditResult } from '../engine/audit/auditJob';
import { auditSarif } from '../engine/report/auditSarif';
import { formatAudit } from '../engine/report/formatAudit';
import { csvHeader, csvLine, episodesJson, formatCreditReport } from '../engine/report/formatCredit';
import { exportCommand } from './commands/exportCommand';
import { indexFolder, indexRunFolderCommand, type IndexRunFolderDeps } from './commands/indexRunFolderCommand';
import { openEpisodeCommand } from './commands/openEpisodeCommand';
import { openEpisodeDiffCommand } from './commands/openEpisodeDiffCommand';
import { openDashboardCommand, openEpisodeViewCommand } from './commands/openViewCommands';
import { openGroupCommand } from './commands/openGroupCommand';
import { openRunFolderCommand } from './commands/openRunFolderCommand';
import { runFolderPicker } from './commands/pickRunFolder';
import { recomputeCreditCommand } from './commands/recomputeCreditCommand';
import { revealTraceLineCommand } from './commands/revealTraceLineCommand';
import { runAuditCommand } from './commands/runAuditCommand';
import { showLogCommand } from './commands/showLogCommand';
import { showRunSummaryCommand } from './commands/showRunSummaryCommand';
import { traceCreditTableCommand } from './commands/traceCreditTableCommand';
import type { IndexJobs } from './indexJobs';
import { clearReplayApiKeyCommand, setReplayApiKeyCommand } from './replay/replayKey';
import type { ComparePanel } from './panels/comparePanel';
import type { DashboardPanel } from './panels/dashboardPanel';
import type { EpisodeDiffPanel } from './panels/episodeDiffPanel';
import type { EpisodePanel } from './panels/episodePanel';
import type { GroupPanel } from './panels/groupPanel';
import type { RunSummaryPanel } from './panels/runSummaryPanel';
import type { RunFolderSource } from './runFolders';
import { ReportDocuments } from './reportDocuments';

/**
 * Every command the extension contributes; `package.json#contributes.commands` lists exactly these
 * (a unit test checks it), and {@link registerAllCommands} registers each one.
 */
export const commandIds = {
  /** "Credit Lens: Index Run Folder", handled by {@link indexRunFolderCommand}. */
  indexRunFolder: 'creditLens.indexRunFolder',
  /** "Credit Lens: Open Run Folder…", handled by {@link openRunFolderCommand}. */
  openRunFolder: 'creditLens.openRunFolder',
  /** "Credit Lens: Show Run Summary", handled by {@link showRunSummaryCommand}. */
  showRunSummary: 'creditLens.showRunSummary',
  /** "Credit Lens: Recompute Credit…", handled by {@link recomputeCreditCommand}. */
  recomputeCredit: 'creditLens.recomputeCredit',
  /** "Credit Lens: Credit Table from the Trace Files…" (no index needed), handled by {@link traceCreditTableCommand}. */
  creditTableFromTraces: 'creditLens.creditTableFromTraces',
  /** "Credit Lens: Run Audit", handled by {@link runAuditCommand}. */
  runAudit: 'creditLens.runAudit',
  /** "Credit Lens: Export Credit and Flags…", handled by {@link exportCommand}. */
  exportResults: 'creditLens.exportResults',
  /** "Credit Lens: Open Episode by Id…", handled by {@link openEpisodeCommand}. */
  openEpisode: 'creditLens.openEpisode',
  /** "Credit Lens: Show Log", handled by {@link showLogCommand}. */
  showLog: 'creditLens.showLog',
  /** "Credit Lens: Reveal Trace Line" (Runs view episodes), handled by {@link revealTraceLineCommand}. */
  revealTraceLine: 'creditLens.revealTraceLine',
  /** "Credit Lens: Open Run Dashboard", handled by {@link openDashboardCommand}. */
  openDashboard: 'creditLens.openDashboard',
  /** "Credit Lens: Open Episode View" (Runs view episodes; elsewhere asks for an id), handled by {@link openEpisodeViewCommand}. */
  openEpisodeView: 'creditLens.openEpisodeView',
  /** "Credit Lens: Open Group View" (Runs view groups), handled by {@link openGroupCommand}. */
  openGroup: 'creditLens.openGroup',
  /** "Credit Lens: Compare Runs…": the Compare view on the current run folder's index. */
  compareRuns: 'creditLens.compareRuns',
  /** "Credit Lens: Diff Episodes" (two episodes side by side), handled by {@link openEpisodeDiffCommand}. */
  openEpisodeDiff: 'creditLens.openEpisodeDiff',
  /** "Credit Lens: Set Replay API Key…", handled by {@link setReplayApiKeyCommand}. */
  setReplayApiKey: 'creditLens.setReplayApiKey',
  /** "Credit Lens: Clear Replay API Key", handled by {@link clearReplayApiKeyCommand}. */
  clearReplayApiKey: 'creditLens.clearReplayApiKey',
} as const;

export type CommandId = (typeof commandIds)[keyof typeof commandIds];

/** What the command handlers share, built once in `activate`. */
export interface CommandServices {
  readonly log: vscode.LogOutputChannel;
  /** The built `dist/indexWorker.js`. */
  readonly workerScript: string;
  readonly jobs: IndexJobs;
  readonly summaryPanel: RunSummaryPanel;
  readonly episodePanel: EpisodePanel;
  readonly dashboardPanel: DashboardPanel;
  readonly groupPanel: GroupPanel;
  readonly comparePanel: ComparePanel;
  readonly diffPanel: EpisodeDiffPanel;
  /** Per-workspace storage folder (for `creditLens.index.location = workspaceStorage`). */
  readonly storageDir?: string;
  /** The extension's version (SARIF tool driver). */
  readonly version: string;
  /** Called after an audit, to refresh diagnostics and views. */
  readonly onAudited: (folder: vscode.Uri, result: AuditResult) => void;
  /** Called after an index pass, to refresh diagnostics and views. */
  readonly onIndexed: IndexRunFolderDeps['onIndexed'];
  /** Called after a credit pass stored credit, to refresh the panels. */
  readonly onCredited?: (folder: vscode.Uri) => void;
  /** The run folders of the workspace and the current one, which every command acts on. */
  readonly runFolders: RunFolderSource;
}

type Register = (id: CommandId, handler: (argument?: unknown) => Promise<void>) => void;

/** Registers every command of {@link commandIds}; each registration goes to `context.subscriptions`. */
export function registerAllCommands(context: vscode.ExtensionContext, services: CommandServices): void {
  const register: Register = (id, handler) => {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  };
  registerPassCommands(context, services, register);
  registerViewCommands(services, register);
}

/** The commands that index, compute, audit and export (and the replay key's two). */
function registerPassCommands(context: vscode.ExtensionContext, services: CommandServices, register: Register): void {
  const { log, workerScript, jobs, summaryPanel } = services;
  const chooseFolder = runFolderPicker(services.runFolders, 'read');
  const showSummary: IndexRunFolderDeps['showSummary'] = (indexed) => {
    summaryPanel.show(indexed);
  };
  const indexDeps: IndexRunFolderDeps = {
    log,
    workerScript,
    jobs,
    showSummary,
    chooseFolder: runFolderPicker(services.runFolders, 'index'),
    ...(services.onIndexed ? { onIndexed: services.onIndexed } : {}),
    ...(services.storageDir !== undefined ? { storageDir: services.storageDir } : {}),
  };
  register(commandIds.indexRunFolder, indexRunFolderCommand(indexDeps));
  register(commandIds.openRunFolder, openRunFolderCommand(indexDeps));
  register(
    commandIds.showRunSummary,
    showRunSummaryCommand({ log, showSummary, chooseFolder, indexFolder: (folder) => indexFolder(folder, indexDeps) }),
  );
  const storage = services.storageDir !== undefined ? { storageDir: services.storageDir } : {};
  const onCredited = services.onCredited ? { onCredited: services.onCredited } : {};
  const { secrets } = context;
  register(
    commandIds.recomputeCredit,
    recomputeCreditCommand({ log, secrets, ...storage, formatCreditReport, chooseFolder, ...onCredited }),
  );
  const reports = new ReportDocuments();
  context.subscriptions.push(reports.register());
  register(
    commandIds.creditTableFromTraces,
    traceCreditTableCommand({
      log,
      workerScript,
      chooseFolder: indexDeps.chooseFolder,
      showReport: (title, lines) => reports.show(title, lines),
    }),
  );
  register(commandIds.setReplayApiKey, setReplayApiKeyCommand({ secrets, log }));
  register(commandIds.clearReplayApiKey, clearReplayApiKeyCommand({ secrets, log }));
  register(
    commandIds.runAudit,
    runAuditCommand({ log, ...storage, formatAudit, chooseFolder, onAudited: services.onAudited }),
  );
  register(
    commandIds.exportResults,
    exportCommand({
      log,
      ...storage,
      chooseFolder,
      version: services.version,
      formatters: { csvHeader, csvLine, episodesJson, auditSarif },
    }),
  );
}

/** The commands that open a view: an episode, the dashboard, a group, the comparison, a diff, the log, a trace line. */
function registerViewCommands(services: CommandServices, register: Register): void {
  const { log } = services;
  const chooseFolder = runFolderPicker(services.runFolders, 'read');
  const storage = services.storageDir !== undefined ? { storageDir: services.storageDir } : {};
  const showEpisode = (folder: vscode.Uri, episodeId: number): void => {
    services.episodePanel.show(folder, episodeId);
  };
  const openById = openEpisodeCommand({ log, ...storage, chooseFolder, showEpisode });
  register(commandIds.openEpisode, openById);
  register(commandIds.openEpisodeView, openEpisodeViewCommand(showEpisode, openById));
  register(
    commandIds.openDashboard,
    openDashboardCommand((folder, runId, steps) => {
      services.dashboardPanel.show(folder, runId, steps);
    }, chooseFolder),
  );
  register(
    commandIds.openGroup,
    openGroupCommand((folder, runId, group) => {
      services.groupPanel.show(folder, runId, group);
    }),
  );
  register(commandIds.compareRuns, async (argument) => {
    const folder = await chooseFolder(argument, 'Credit Lens: Compare Runs');
    if (folder) services.comparePanel.show(folder);
  });
  register(
    commandIds.openEpisodeDiff,
    openEpisodeDiffCommand({
      log,
      ...storage,
      chooseFolder,
      show: (a, b, method) => {
        services.diffPanel.show(a, b, method);
      },
    }),
  );
  register(commandIds.showLog, showLogCommand({ log }));
  register(commandIds.revealTraceLine, revealTraceLineCommand());
}
