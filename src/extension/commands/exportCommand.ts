import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { RunAudit } from '../../core/auditReport';
import type { AuditOptions, AuditResult } from '../../engine/audit/auditJob';
import { runAudit } from '../../engine/audit/auditJob';
import { runCreditJob, type CreditJobOptions } from '../../engine/credit/creditJob';
import type { CreditOutputRow } from '../../store/creditRepository';
import { indexDbPath, loadConfigOrReport, type CreditLensConfig } from '../config';
import { plural } from '../indexReport';
import { gatedEvaluatorChoice } from '../trust';
import { folderLabel } from '../runFolders';
import { pickRunFolder, runOfItem, type ChooseRunFolder } from './pickRunFolder';
import { reportJobFailure, type RunCredit } from './recomputeCreditCommand';
import type { RunAuditJob } from './runAuditCommand';

/** The CLI's output formatters (src/cli/formatCredit.ts, auditSarif.ts), to be shared through src/engine. */
export interface ExportFormatters {
  readonly csvHeader: string;
  readonly csvLine: (run: string, row: CreditOutputRow) => string;
  readonly episodesJson: (rows: Iterable<CreditOutputRow>) => Iterable<object>;
  readonly auditSarif: (root: string, reports: readonly RunAudit[], version: string) => unknown;
}

export interface ExportDeps {
  readonly log: vscode.LogOutputChannel;
  readonly storageDir?: string;
  readonly formatters: ExportFormatters;
  /** The extension's version, for SARIF's tool driver. */
  readonly version: string;
  readonly runCredit?: RunCredit;
  readonly runAudit?: RunAuditJob;
  /** Finds the run folder (the current one, a pick, ...); the workspace-folder picker unless given. */
  readonly chooseFolder?: ChooseRunFolder;
}

/** The file formats of the export. */
export type ExportFormat = 'csv' | 'jsonl' | 'sarif';

const title = 'Credit Lens: Export Credit and Flags';

const formatItems: readonly (vscode.QuickPickItem & { format: ExportFormat })[] = [
  {
    label: 'CSV',
    description: 'credit rows',
    detail: 'One row per episode, agent (and message) with its value, interval and GRPO advantage',
    format: 'csv',
  },
  {
    label: 'JSON Lines',
    description: 'credit per episode',
    detail: 'One JSON object per episode with its credit by method and agent',
    format: 'jsonl',
  },
  {
    label: 'SARIF',
    description: 'audit flags',
    detail: 'SARIF 2.1.0: every flag at its trace file and line, with its evidence',
    format: 'sarif',
  },
];

/** An export's file text and what it holds, for the notification. */
interface ExportText {
  readonly text: string;
  readonly items: string;
}

/**
 * Handler of `creditLens.exportResults`: picks the run folder and the format, asks where to save,
 * then writes the credit of the configured default method (CSV rows or one JSON object per episode;
 * stored credit is recomputed through the evaluation cache, so a repeat is cheap) or the audit's
 * flags (SARIF), through `workspace.fs`.
 */
export function exportCommand(deps: ExportDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickRunFolder)(argument, title);
    if (folder === undefined) return;
    const config = loadConfigOrReport(deps.log);
    if (config === undefined) return;
    const picked = await vscode.window.showQuickPick(formatItems, {
      title,
      placeHolder: `Choose what to export (credit: ${config.defaultMethod})`,
    });
    if (picked === undefined) return;
    const run = runOfItem(argument);
    const target = await vscode.window.showSaveDialog({
      title,
      defaultUri: vscode.Uri.joinPath(
        folder,
        `credit-lens-${run ? `${basename(run)}-` : ''}${picked.format === 'sarif' ? 'audit' : config.defaultMethod}.${picked.format}`,
      ),
      filters: { [picked.label]: [picked.format] },
    });
    if (target === undefined) return;
    await exportTo({ folder, run }, target, picked.format, config, deps);
  };
}

/** What is exported: a run folder, or one run of it (runOfItem). */
interface ExportScope {
  readonly folder: vscode.Uri;
  readonly run: string | undefined;
}

async function exportTo(
  { folder, run }: ExportScope,
  target: vscode.Uri,
  format: ExportFormat,
  config: CreditLensConfig,
  deps: ExportDeps,
): Promise<void> {
  const root = folder.fsPath;
  const dbPath = indexDbPath(config.indexLocation, root, deps.storageDir);
  const evaluator = gatedEvaluatorChoice(config, deps.log);
  const only = run ? { run } : {};
  let exported: ExportText | undefined;
  try {
    exported = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Credit Lens: exporting ${folderLabel(folder)}${run ? ` › ${run}` : ''}`,
        cancellable: format !== 'sarif',
      },
      async (_progress, token) => {
        if (format === 'sarif')
          return sarifText(
            root,
            {
              root,
              ...only,
              thresholds: config.auditThresholds,
              evaluator,
              ...(dbPath !== undefined ? { dbPath } : {}),
            },
            deps,
          );
        const options: CreditJobOptions = {
          root,
          ...only,
          method: config.defaultMethod,
          evaluator,
          concurrency: config.evaluator.concurrency,
          ...(dbPath !== undefined ? { dbPath } : {}),
        };
        const text = await creditText(format, options, () => token.isCancellationRequested, deps);
        return token.isCancellationRequested ? undefined : text;
      },
    );
  } catch (error) {
    await reportJobFailure(folder, error, deps.log, 'export');
    return;
  }
  if (exported === undefined) {
    deps.log.info(`Export of ${root} cancelled; nothing was written`);
    return;
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(exported.text));
  deps.log.info(`Exported ${exported.items} of ${root} to ${target.fsPath}`);
  void vscode.window.showInformationMessage(`Exported ${exported.items} to ${basename(target.fsPath)}.`);
}

async function creditText(
  format: 'csv' | 'jsonl',
  options: CreditJobOptions,
  isCancelled: () => boolean,
  deps: ExportDeps,
): Promise<ExportText> {
  const { csvHeader, csvLine, episodesJson } = deps.formatters;
  const lines = format === 'csv' ? [csvHeader] : [];
  let episodes = 0;
  await (deps.runCredit ?? runCreditJob)(options, {
    isCancelled,
    onRunStored: (run, rows) => {
      if (format === 'csv') {
        for (const row of rows) lines.push(csvLine(run.run.name, row));
        return;
      }
      for (const episode of episodesJson(rows)) {
        lines.push(JSON.stringify({ run: run.run.name, ...episode }, finiteNumbers));
        episodes++;
      }
    },
  });
  const items = format === 'csv' ? plural(lines.length - 1, 'credit row') : plural(episodes, 'episode');
  return { text: `${lines.join('\n')}\n`, items };
}

async function sarifText(root: string, options: AuditOptions, deps: ExportDeps): Promise<ExportText> {
  const result: AuditResult = await (deps.runAudit ?? runAudit)(options);
  const flags = result.runs.reduce((sum, r) => sum + r.flags.length, 0);
  return {
    text: `${JSON.stringify(deps.formatters.auditSarif(root, result.runs, deps.version), null, 2)}\n`,
    items: plural(flags, 'flag'),
  };
}

/** Non-finite numbers as `null`, as the CLI's `--json` writes them. */
function finiteNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}
