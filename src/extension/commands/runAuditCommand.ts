import * as vscode from 'vscode';
import type { RunAudit } from '../../core/auditReport';
import { runAudit, type AuditOptions, type AuditResult } from '../../engine/audit/auditJob';
import { indexDbPath, loadConfigOrReport } from '../config';
import { plural } from '../indexReport';
import { gatedEvaluatorChoice } from '../trust';
import { folderLabel } from '../runFolders';
import { pickRunFolder, runOfItem, type ChooseRunFolder } from './pickRunFolder';
import { reportJobFailure } from './recomputeCreditCommand';

/** Runs an audit; `runAudit` unless a test injects another. */
export type RunAuditJob = (options: AuditOptions) => Promise<AuditResult>;
/** The readable report of one run (the CLI's `formatAudit`, to be shared through src/engine). */
export type FormatAudit = (report: RunAudit) => string[];

export interface RunAuditDeps {
  readonly log: vscode.LogOutputChannel;
  readonly storageDir?: string;
  readonly formatAudit: FormatAudit;
  /** Called after every audit, so diagnostics and trees can refresh. */
  readonly onAudited: (folder: vscode.Uri, result: AuditResult) => void;
  readonly runAudit?: RunAuditJob;
  /** Finds the run folder (the current one, a pick, ...); the workspace-folder picker unless given. */
  readonly chooseFolder?: ChooseRunFolder;
}

const showProblemsAction = 'Show Problems';
const showLogAction = 'Show Log';

/**
 * Handler of `creditLens.runAudit`: audits the run folder with the thresholds and evaluator of the
 * settings, logs each run's report, hands the result to `onAudited` and shows the flag counts.
 * Cancelling the progress notification stops the credit pass; a cancelled audit stores no flags.
 */
export function runAuditCommand(deps: RunAuditDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickRunFolder)(argument, 'Credit Lens: Run Audit');
    if (folder === undefined) return;
    const config = loadConfigOrReport(deps.log);
    if (config === undefined) return;
    const root = folder.fsPath;
    const run = runOfItem(argument);
    const dbPath = indexDbPath(config.indexLocation, root, deps.storageDir);
    const options: AuditOptions = {
      root,
      ...(run ? { run } : {}),
      thresholds: config.auditThresholds,
      evaluator: gatedEvaluatorChoice(config, deps.log),
      ...(dbPath !== undefined ? { dbPath } : {}),
    };
    deps.log.info(`Auditing ${root}`);
    let result: AuditResult;
    try {
      result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Credit Lens: auditing ${folderLabel(folder)}${run ? ` › ${run}` : ''}`,
          cancellable: true,
        },
        (_progress, token) =>
          (deps.runAudit ?? runAudit)({ ...options, isCancelled: () => token.isCancellationRequested }),
      );
    } catch (error) {
      await reportJobFailure(folder, error, deps.log, 'audit');
      return;
    }
    if (result.cancelled === true) {
      deps.log.info(`Audit of ${root} cancelled; the previous flags are kept`);
      void vscode.window.showInformationMessage('Credit Lens: audit cancelled; the previous flags are kept.');
      return;
    }
    for (const report of result.runs) for (const line of deps.formatAudit(report)) deps.log.info(line);
    deps.onAudited(folder, result);
    const show = result.runs.some((r) => r.flags.length > 0)
      ? vscode.window.showWarningMessage
      : vscode.window.showInformationMessage;
    const choice = await show(auditHeadline(result), showProblemsAction, showLogAction);
    if (choice === showProblemsAction) await vscode.commands.executeCommand('workbench.actions.view.problems');
    else if (choice === showLogAction) deps.log.show();
  };
}

/**
 * The notification after an audit, e.g. `Audit of 2 runs: 3 flags (2 free-rider, 1 silent); 1
 * verdict not reached`, kinds in the order of their counts.
 */
export function auditHeadline(result: AuditResult): string {
  const flags = result.runs.flatMap((r) => r.flags);
  const byKind = new Map<string, number>();
  for (const flag of flags) byKind.set(flag.kind, (byKind.get(flag.kind) ?? 0) + 1);
  const kinds = [...byKind].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${n} ${kind}`);
  const unreachable = result.runs.reduce((sum, r) => sum + r.unreachable.length, 0);
  return [
    `Audit of ${plural(result.runs.length, 'run')}: ${flags.length === 0 ? 'no flags' : `${plural(flags.length, 'flag')} (${kinds.join(', ')})`}`,
    ...(unreachable > 0 ? [`${plural(unreachable, 'verdict')} not reached (see the log)`] : []),
  ].join('; ');
}
