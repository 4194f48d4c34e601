import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { defaultSplit } from '../../core/split';
import type { CreditMethodName } from '../../engine/credit/creditMethod';
import { formatTraceCredit } from '../../engine/report/formatTraceCredit';
import { traceCreditMethods, type TraceCreditMethod } from '../../engine/traceCredit/traceCreditChoice';
import {
  traceCreditTable,
  type TraceCreditOptions,
  type TraceCreditResult,
} from '../../engine/traceCredit/traceCreditJob';
import { loadConfigOrReport } from '../config';
import { count, plural, progressIncrement } from '../indexReport';
import { folderLabel } from '../runFolders';
import { pickFolderToIndex, runOfItem, type ChooseRunFolder } from './pickRunFolder';
import { methodLabels, reportJobFailure } from './recomputeCreditCommand';

/** Computes the table; `traceCreditTable` unless a test injects another. */
export type RunTraceCredit = (options: TraceCreditOptions) => Promise<TraceCreditResult>;

export interface TraceCreditTableDeps {
  readonly log: vscode.LogOutputChannel;
  /** The built `dist/indexWorker.js`: the table's parse workers (`dist/traceCreditWorker.js`) sit beside it. */
  readonly workerScript: string;
  /** Opens the report as a read-only document (ReportDocuments.show). */
  readonly showReport: (title: string, lines: readonly string[]) => Promise<unknown>;
  readonly runTable?: RunTraceCredit;
  /** Finds the run folder, indexed or not (the Index command's picker unless given). */
  readonly chooseFolder?: ChooseRunFolder;
}

const title = 'Credit Lens: Credit Table from the Trace Files';

const methodDetails: Readonly<Record<TraceCreditMethod, string>> = {
  loo: 'Leave-one-out v(N) − v(N∖{i}) from the counterfactuals the traces log',
  shapley: 'Exact Shapley values from the coalition values the traces log',
  shared: 'The team reward every agent is trained on (the reference)',
};

/**
 * Handler of `creditLens.creditTableFromTraces`: the first answer to "who earned the reward over
 * training" without waiting for the index — the engine of `credit-lens table` (one pass over the
 * trace files in parse workers, credit from logged values only, nothing stored) under a
 * cancellable progress notification, shown as a read-only report. Works on a folder with no index
 * or one being indexed; what the traces cannot answer is said in the report with what would.
 */
export function traceCreditTableCommand(deps: TraceCreditTableDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickFolderToIndex)(argument, title);
    if (folder === undefined) return;
    const config = loadConfigOrReport(deps.log);
    if (config === undefined) return;
    const method = await pickTraceMethod(config.defaultMethod);
    if (method === undefined) return;
    const root = folder.fsPath;
    const run = runOfItem(argument);
    deps.log.info(`Credit table (${method}) from the trace files of ${run ? join(root, run) : root}`);
    let result: TraceCreditResult;
    let cancelled = false;
    try {
      result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `${title}: ${folderLabel(folder)}${run ? ` › ${run}` : ''}`,
          cancellable: true,
        },
        (progress, token) => {
          let reported = 0;
          return (deps.runTable ?? traceCreditTable)({
            root,
            method,
            split: defaultSplit,
            steps: [-Infinity, Infinity],
            ...(run ? { run } : {}),
            parseWorkerScript: join(dirname(deps.workerScript), 'traceCreditWorker.js'),
            jobWorkerScript: deps.workerScript,
            isCancelled: () => (cancelled ||= token.isCancellationRequested),
            onProgress: (update) => {
              const step = progressIncrement(reported, update);
              reported = step.percent;
              const files = `${count(update.filesDone)} of ${plural(update.filesTotal, 'file')} read`;
              progress.report({ increment: step.increment, message: files });
            },
          });
        },
      );
    } catch (error) {
      await reportJobFailure(folder, error, deps.log, 'read the traces of');
      return;
    }
    await reportTable(folder, run, method, result, cancelled, deps);
  };
}

/** The methods in the order offered: the credit methods first, the shared-reward reference last. */
const offered: readonly TraceCreditMethod[] = ['loo', 'shapley', 'shared'];

async function pickTraceMethod(defaultMethod: CreditMethodName): Promise<TraceCreditMethod | undefined> {
  const first = traceCreditMethods.find((m) => m === defaultMethod) ?? 'loo';
  const ordered = [first, ...offered.filter((m) => m !== first)];
  const items = ordered.map((method) => ({
    label: methodLabels[method],
    description: method,
    detail: methodDetails[method],
    method,
  }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Choose the credit method' });
  return picked?.method;
}

async function reportTable(
  folder: vscode.Uri,
  run: string | undefined,
  method: TraceCreditMethod,
  result: TraceCreditResult,
  cancelled: boolean,
  deps: TraceCreditTableDeps,
): Promise<void> {
  const root = folder.fsPath;
  // The report lists an unreadable run.json among its issues; the log marks it as an error too.
  for (const fatal of result.pass.fatal) deps.log.error(`${root}: ${fatal}`);
  if (cancelled) {
    deps.log.info(`Credit table of ${root} cancelled`);
    void vscode.window.showInformationMessage('Credit Lens: credit table cancelled; nothing was stored.');
    return;
  }
  const lines = formatTraceCredit(root, method, result);
  for (const line of lines) deps.log.info(line);
  const scope = run ? `${folderLabel(folder)} › ${run}` : folderLabel(folder);
  await deps.showReport(`${scope} — ${methodLabels[method]} from the trace files`, lines);
  const computed = result.runs.reduce((sum, r) => sum + r.computed, 0);
  if (computed === 0)
    void vscode.window.showWarningMessage(
      `Credit Lens: no episode of ${scope} logs the values ${methodLabels[method]} needs; the report says what would answer it.`,
    );
}
