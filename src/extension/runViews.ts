import * as vscode from 'vscode';
import type { AuditResult } from '../engine/audit/auditJob';
import type { IndexJobResult } from '../engine/indexJob';
import { ActiveIndex } from './activeIndex';
import { appendedOnly, BackgroundIndexing } from './backgroundIndexing';
import { configuredIndexPath, hasIndex } from './config';
import { IndexUpgrades } from './indexUpgrades';
import type { SeverityByKind } from './diagnostics/flagDiagnostics';
import { plural } from './indexReport';
import { folderLabel, RunFolders } from './runFolders';
import { CreditLensViews } from './tree/creditLensViews';
import type { RunFolderEntry } from './tree/runsTreeProvider';
import type { BrowseIndex } from './tree/treeItems';
import type { IndexChange } from './panels/dashboardPanel';

/** What the commands call when an index pass or an audit finished, and the run folders they act on. */
export interface RunViewHooks {
  readonly onIndexed: (folder: vscode.Uri, result: IndexJobResult) => void;
  readonly onAudited: (folder: vscode.Uri, result: AuditResult) => void;
  readonly runFolders: RunFolders;
}

/**
 * The Runs and Flags views, the Problems-panel diagnostics, the live tail and the status bar, all
 * following the current run folder (see {@link RunFolders}): the one last indexed, audited or
 * chosen, else the first indexed folder found. With several indexed folders the Runs view lists
 * them all, and selecting one makes it current. Everything created here is owned by `context`.
 */
export function activateRunViews(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  workerScript: string,
  /** Called whenever the index of `folder` changed (indexed, live-tailed or audited), for the panels. */
  onChanged: (folder: vscode.Uri, change?: IndexChange) => void = () => undefined,
): RunViewHooks {
  const own = <T extends vscode.Disposable>(d: T): T => (context.subscriptions.push(d), d);
  const storageDir = context.storageUri?.fsPath;
  const indexPath = (root: string): string | undefined => configuredIndexPath(root, storageDir);
  const active = own(new ActiveIndex(log, indexPath));
  const folders = own(
    new RunFolders({
      state: context.workspaceState,
      hasIndex: (folder) => hasIndex(folder.fsPath, storageDir),
      describe: (folder) => describeIndex(active.of(folder)),
      log,
    }),
  );
  /** The folder the views follow: the current one, else the first indexed (the commands still ask). */
  const shownFolder = (): vscode.Uri | undefined => folders.current() ?? folders.indexed()[0];
  const upgrades = new IndexUpgrades({
    log,
    pass: (folder) => background.passNow(folder),
    // Shown again if it is still the folder to show (the user may have chosen another meanwhile).
    onUpgraded: (folder) => {
      showCurrent();
      onChanged(folder);
    },
    onFailed: () => views.refresh(),
  });
  const views = own(
    new CreditLensViews({
      index: () => active.get(),
      unopened: (folder) => upgrades.describe(active.unopened(folder)),
      folders: () => folderEntries(folders.indexed(), active.get()?.folder),
      indexOf: (folder) => readOrUpgrade(active, upgrades, folder),
      onSelect: (folder) => folders.choose(folder),
      log,
      severities: auditSeverities,
    }),
  );
  const isShown = (folder: vscode.Uri): boolean => active.get()?.folder.fsPath === folder.fsPath;
  const background = own(
    new BackgroundIndexing({
      log,
      workerScript,
      indexPath,
      onIndexed: (folder, result) => {
        if (isShown(folder)) views.refreshAfterPass();
        onChanged(folder, appendedOnly(result.tally) ? 'appended' : 'changed');
      },
    }),
  );
  const showCurrent = (): void => {
    active.closeOthers();
    const folder = shownFolder();
    if (folder && (isShown(folder) || active.show(folder))) background.follow(folder);
    else if (!folder) active.hide();
    else upgrades.start(active.unopened());
    views.refresh();
  };
  own(folders.onDidChange(showCurrent));
  showCurrent();
  /** After a pass or an audit over `folder`: it becomes current, its index is reopened, everything refreshes. */
  const changed = (folder: vscode.Uri): void => {
    folders.choose(folder);
    active.show(folder);
    views.refresh();
    onChanged(folder);
  };
  return {
    runFolders: folders,
    onIndexed: (folder, result) => {
      upgrades.forget(folder);
      changed(folder);
      background.follow(folder, result);
    },
    onAudited: (folder, result) => {
      log.info(`Audit of ${folder.fsPath}: ${plural(countFlags(result), 'flag')}`);
      changed(folder);
    },
  };
}

/** A listed folder's index; one an older Credit Lens wrote starts its upgrade when the view first reads it. */
function readOrUpgrade(active: ActiveIndex, upgrades: IndexUpgrades, folder: vscode.Uri): BrowseIndex | undefined {
  const index = active.of(folder);
  if (!index) upgrades.start(active.unopened(folder));
  return index;
}

/** Diagnostic severity per flag kind, as the settings ask (read on each refresh). */
function auditSeverities(): SeverityByKind {
  return vscode.workspace.getConfiguration('creditLens').get<SeverityByKind>('audit.severity', {});
}

function countFlags(result: AuditResult): number {
  return result.runs.reduce((n, r) => n + r.flags.length, 0);
}

/** The Runs view's folder level: every indexed folder by its workspace-relative name. */
function folderEntries(indexed: readonly vscode.Uri[], shown: vscode.Uri | undefined): RunFolderEntry[] {
  return indexed.map((folder) => ({ folder, label: folderLabel(folder), current: folder.fsPath === shown?.fsPath }));
}

/** `2 runs (a, b) · 1,920 episodes`, for the pick among indexed folders; undefined when unreadable. */
function describeIndex(index: BrowseIndex | undefined): string | undefined {
  if (!index) return undefined;
  try {
    const runs = index.repository.runs();
    if (runs.length === 0) return 'no runs yet';
    const episodes = runs.reduce((sum, run) => sum + run.episodes, 0);
    const names = runs
      .slice(0, 3)
      .map((run) => run.name || '(root)')
      .join(', ');
    return `${plural(runs.length, 'run')} (${names}${runs.length > 3 ? ', …' : ''}) · ${plural(episodes, 'episode')}`;
  } catch {
    return undefined;
  }
}
