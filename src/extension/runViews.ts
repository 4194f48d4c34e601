import * as vscode from 'vscode';
import type { AuditResult } from '../engine/audit/auditJob';
import type { IndexJobResult } from '../engine/indexJob';
import { ActiveIndex } from './activeIndex';
import { BackgroundIndexing } from './backgroundIndexing';
import { configuredIndexPath } from './commands/indexRunFolderCommand';
import type { SeverityByKind } from './diagnostics/flagDiagnostics';
import { CreditLensViews } from './tree/creditLensViews';

/** What the commands call when an index pass or an audit finished. */
export interface RunViewHooks {
  readonly onIndexed: (folder: vscode.Uri, result: IndexJobResult) => void;
  readonly onAudited: (folder: vscode.Uri, result: AuditResult) => void;
}

/**
 * The Runs and Flags views, the Problems-panel diagnostics, the live tail and the status bar, all
 * following one "active" run folder: the last one indexed or audited, else the first workspace
 * folder that already has an index. Everything created here is owned by `context`.
 */
export function activateRunViews(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  workerScript: string,
  /** Called whenever the index of `folder` changed (indexed, live-tailed or audited), for the panels. */
  onChanged: (folder: vscode.Uri) => void = () => undefined,
): RunViewHooks {
  const own = <T extends vscode.Disposable>(d: T): T => (context.subscriptions.push(d), d);
  const indexPath = (root: string): string | undefined => configuredIndexPath(root, context.storageUri?.fsPath);
  const active = own(new ActiveIndex(log, indexPath));
  const severities = (): SeverityByKind => vscode.workspace.getConfiguration('creditLens').get<SeverityByKind>('audit.severity', {});
  const views = own(new CreditLensViews({ index: () => active.get(), log, severities }));
  const showFolder = (folder: vscode.Uri): void => {
    active.show(folder);
    views.refresh();
    onChanged(folder);
  };
  const background = own(new BackgroundIndexing({ log, workerScript, indexPath, onIndexed: showFolder }));
  const shown = active.showFirstIndexedWorkspaceFolder();
  if (shown) background.follow(shown);
  views.refresh();
  return {
    onIndexed: (folder, result) => {
      showFolder(folder);
      background.follow(folder, result);
    },
    onAudited: (folder, result) => {
      log.info(`Audit of ${folder.fsPath}: ${result.runs.reduce((n, r) => n + r.flags.length, 0)} flag(s)`);
      showFolder(folder);
    },
  };
}
