import * as vscode from 'vscode';
import { parseStepRange as parseRange } from '../../core/stepRange';
import { err, ok, type Result } from '../../core/result';
import type { EvaluatorChoice } from '../../engine/credit/chooseEvaluator';
import {
  runCreditJob,
  type CreditJobHooks,
  type CreditJobOptions,
  type CreditJobResult,
} from '../../engine/credit/creditJob';
import {
  coalitionMethods,
  creditMethods,
  perMessageMethods,
  type CreditMethodName,
} from '../../engine/credit/creditMethod';
import { NoIndexError } from '../../engine/indexJob';
import { indexDbPath, loadConfigOrReport, type CreditLensConfig } from '../config';
import { count, plural } from '../indexReport';
import { currentEvaluatorChoice, showTrustWarning } from '../trust';
import { abortOnCancel, confirmPass, PassMeter, type ReplayDeps } from '../replay/replayPass';
import { folderLabel } from '../runFolders';
import { pickRunFolder, runOfItem, type ChooseRunFolder } from './pickRunFolder';

/** Runs a credit pass; `runCreditJob` unless a test injects another. */
export type RunCredit = (options: CreditJobOptions, hooks?: CreditJobHooks) => Promise<CreditJobResult>;
/** The per-agent report of a credit pass (the CLI's `formatCreditReport`, to be shared through src/engine). */
export type FormatCreditReport = (root: string, method: string, result: CreditJobResult) => string[];

/** The command's services; `log`, `secrets` (the replay's API key) and `estimateReplay` come from {@link ReplayDeps}. */
export interface RecomputeCreditDeps extends ReplayDeps {
  /** `context.storageUri?.fsPath`, for `creditLens.index.location: "workspaceStorage"`. */
  readonly storageDir?: string;
  readonly formatCreditReport: FormatCreditReport;
  readonly runCredit?: RunCredit;
  /** Called after a pass that stored credit (so views can refresh). */
  readonly onCredited?: (folder: vscode.Uri, result: CreditJobResult) => void;
  /** Finds the run folder (the current one, a pick, ...); the workspace-folder picker unless given. */
  readonly chooseFolder?: ChooseRunFolder;
}

const title = 'Credit Lens: Recompute Credit';
const showLogAction = 'Show Log';
const indexAction = 'Index Run Folder';
/** `commandIds.indexRunFolder`, spelled out: commandIds imports this file. */
const indexRunFolderId = 'creditLens.indexRunFolder';

/** How each method is named in the quick pick and the notification. */
export const methodLabels: Readonly<Record<CreditMethodName, string>> = {
  shared: 'Shared',
  loo: 'LOO',
  shapley: 'Shapley',
  'shapley-mc': 'Shapley (Monte Carlo)',
  routing: 'Routing',
  prefix: 'Prefix',
  owen: 'Owen',
};

const methodDetails: Readonly<Record<CreditMethodName, string>> = {
  shared: 'The team reward every agent gets in multi-agent GRPO (the reference)',
  loo: 'Leave-one-out marginal contribution v(N) − v(N∖{i})',
  shapley: 'Exact Shapley values (up to 16 agents per episode)',
  'shapley-mc': 'Monte-Carlo Shapley values with 95% intervals',
  routing: 'Selection-gated credit of routed experts from the logged probabilities',
  prefix: 'Per-message credit from prefix-value differences',
  owen: 'Per-message Owen values (sum to the agent’s Shapley value)',
};

/** What the user chose in the pickers. */
interface CreditRequest {
  readonly method: CreditMethodName;
  readonly evaluator?: EvaluatorChoice;
  readonly budget?: number;
  readonly steps?: readonly [number, number];
  /** The run of the Runs view item the command was invoked on (runOfItem); every run otherwise. */
  readonly run?: string;
}

/**
 * Handler of `creditLens.recomputeCredit`: picks the run folder, the method (the configured default
 * first), the evaluator (built-in, the configured command or replay, gated by workspace trust), an
 * optional budget (`loo`) and step range; a replay's estimate is confirmed in a modal dialog; then
 * recomputes credit under a cancellable progress notification (a replay's with calls, tokens, time).
 */
export function recomputeCreditCommand(deps: RecomputeCreditDeps): (argument?: unknown) => Promise<void> {
  return async (argument) => {
    const folder = await (deps.chooseFolder ?? pickRunFolder)(argument, title);
    if (folder === undefined) return;
    const config = loadConfigOrReport(deps.log);
    if (config === undefined) return;
    const request = await askRequest(config, deps.log);
    if (request === undefined) return;
    const run = runOfItem(argument);
    await recompute(folder, config, { ...request, ...(run ? { run } : {}) }, deps);
  };
}

async function askRequest(config: CreditLensConfig, log: vscode.LogOutputChannel): Promise<CreditRequest | undefined> {
  const method = await pickMethod(config.defaultMethod);
  if (method === undefined) return undefined;
  const needsEvaluator = coalitionMethods.has(method) || perMessageMethods.has(method);
  const evaluator = needsEvaluator ? await pickEvaluator(config, log) : undefined;
  if (needsEvaluator && evaluator === undefined) return undefined;
  const budget = method === 'loo' ? await askBudget() : { value: undefined };
  if (budget === undefined) return undefined;
  const steps = await askSteps();
  if (steps === undefined) return undefined;
  return {
    method,
    ...(evaluator ? { evaluator } : {}),
    ...(budget.value !== undefined ? { budget: budget.value } : {}),
    ...(steps.value ? { steps: steps.value } : {}),
  };
}

async function pickMethod(defaultMethod: CreditMethodName): Promise<CreditMethodName | undefined> {
  const ordered = [defaultMethod, ...creditMethods.filter((m) => m !== defaultMethod)];
  const items = ordered.map((method) => ({
    label: methodLabels[method],
    description: method === defaultMethod ? `${method} (default)` : method,
    detail: methodDetails[method],
    method,
  }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Choose the credit method' });
  return picked?.method;
}

type EvaluatorPick = 'builtin' | 'command' | 'replay';

/**
 * The evaluator: without a configured command or replay, the built-in one (no pick). Otherwise a
 * pick, the replay first (it is the default when configured); a command or replay refused by
 * workspace trust (or an invalid replay setting) is listed with the reason, and choosing it falls
 * back to the evaluator used without it, with the warning.
 */
async function pickEvaluator(
  config: CreditLensConfig,
  log: vscode.LogOutputChannel,
): Promise<EvaluatorChoice | undefined> {
  const gated = currentEvaluatorChoice(config);
  const withoutReplay = gated.fallback ?? gated.choice;
  const builtin: EvaluatorChoice = {
    kind: 'builtin',
    name: config.evaluator.builtin,
    options: config.evaluator.options,
  };
  const { command, replay } = config.evaluator;
  if (command === '' && replay.state === 'off') return builtin;
  const items = [
    ...(replay.state === 'off' ? [] : [replayItem(config, gated.choice.kind === 'replay')]),
    {
      label: `Built-in: ${config.evaluator.builtin}`,
      description: 'checks the final answer',
      pick: 'builtin' as const,
    },
    ...(command === '' ? [] : [commandItem(command, withoutReplay.kind === 'command')]),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: 'Choose the evaluator for counterfactual values',
  });
  if (picked === undefined) return undefined;
  if (picked.pick === 'builtin') return builtin;
  const allowed = picked.pick === 'replay' ? gated.choice.kind === 'replay' : withoutReplay.kind === 'command';
  if (!allowed && gated.warning !== undefined) showTrustWarning(gated.warning, log, gated.fix);
  return picked.pick === 'replay' ? gated.choice : withoutReplay;
}

interface EvaluatorItem extends vscode.QuickPickItem {
  readonly pick: EvaluatorPick;
}

function commandItem(command: string, allowed: boolean): EvaluatorItem {
  if (allowed) return { label: `Command: ${command}`, description: 'creditLens.evaluator.command', pick: 'command' };
  return {
    label: `$(circle-slash) Command: ${command} (disabled)`,
    description: 'the workspace is not trusted',
    detail: 'Workspace settings may not run a command in Restricted Mode; the built-in evaluator is used instead.',
    pick: 'command',
  };
}

function replayItem(config: CreditLensConfig, allowed: boolean): EvaluatorItem {
  const replay = config.evaluator.replay;
  if (replay.state !== 'on')
    return {
      label: '$(circle-slash) Replay (disabled)',
      description: 'creditLens.evaluator.replay is invalid',
      detail: replay.state === 'invalid' ? replay.error : '',
      pick: 'replay',
    };
  if (allowed)
    return {
      label: `Replay on ${replay.host}`,
      description: 'creditLens.evaluator.replay',
      detail: 'Re-generates the later agents’ messages on your model server; the cost is estimated and confirmed first',
      pick: 'replay',
    };
  return {
    label: `$(circle-slash) Replay on ${replay.host} (disabled)`,
    description: 'the workspace is not trusted',
    detail: 'Replays run only in a trusted workspace; the evaluator used without replay is used instead.',
    pick: 'replay',
  };
}

async function askBudget(): Promise<{ value: number | undefined } | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt: 'Evaluator-call budget (optional): spend about N evaluator calls and estimate the rest',
    placeHolder: 'empty for exact leave-one-out',
    validateInput: (value) => (parseBudget(value).ok ? undefined : 'Enter a positive whole number, or leave it empty'),
  });
  if (text === undefined) return undefined;
  const parsed = parseBudget(text);
  return parsed.ok ? { value: parsed.value } : undefined;
}

async function askSteps(): Promise<{ value: readonly [number, number] | undefined } | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt: 'Training steps (optional): A..B, A.., ..B or A',
    placeHolder: 'empty for every step',
    validateInput: (value) => {
      const parsed = parseStepRange(value);
      return parsed.ok ? undefined : parsed.error;
    },
  });
  if (text === undefined) return undefined;
  const parsed = parseStepRange(text);
  return parsed.ok ? { value: parsed.value } : undefined;
}

/** `""` → no budget; a positive integer → that budget. */
export function parseBudget(text: string): Result<number | undefined> {
  const trimmed = text.trim();
  if (trimmed === '') return ok(undefined);
  const value = Number(trimmed);
  return /^\d+$/.test(trimmed) && value > 0
    ? ok(value)
    : err(`the budget must be a positive whole number, got "${text}"`);
}

/** `""` → every step; otherwise a range as the CLI's `--step` takes it (core/stepRange.ts). */
export function parseStepRange(text: string): Result<readonly [number, number] | undefined> {
  if (text.trim() === '') return ok(undefined);
  const range = parseRange(text);
  return range.ok ? range : err(`Steps ${range.error}`);
}

async function recompute(
  folder: vscode.Uri,
  config: CreditLensConfig,
  request: CreditRequest,
  deps: RecomputeCreditDeps,
): Promise<void> {
  const root = folder.fsPath;
  const dbPath = indexDbPath(config.indexLocation, root, deps.storageDir);
  const options: CreditJobOptions = {
    root,
    ...request,
    concurrency: config.evaluator.concurrency,
    ...(dbPath !== undefined ? { dbPath } : {}),
  };
  let cancelled = false;
  let result: CreditJobResult;
  let meter: PassMeter;
  try {
    const pass = await confirmPass(options, deps);
    if (pass === undefined) return;
    meter = new PassMeter(pass.replay);
    deps.log.info(`Computing ${request.method} credit of ${root}`);
    result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Credit Lens: ${methodLabels[request.method]} credit of ${folderLabel(folder)}${request.run ? ` › ${request.run}` : ''}`,
        cancellable: true,
      },
      async (progress, token) => {
        const cancel = abortOnCancel(token);
        const cancellation = token.onCancellationRequested(() =>
          deps.log.info('Cancelling the credit pass; episodes done so far stay stored'),
        );
        const hooks: CreditJobHooks = {
          isCancelled: () => (cancelled = token.isCancellationRequested),
          onProgress: (done, total, run) =>
            progress.report({ message: `${run || '(root)'}: ${count(done)} of ${plural(total, 'episode')}` }),
        };
        try {
          return await (deps.runCredit ?? runCreditJob)(
            pass.options,
            meter.hooks(hooks, cancel.signal, () => progress.report({ message: meter.progress() })),
          );
        } finally {
          cancellation.dispose();
          cancel.dispose();
        }
      },
    );
  } catch (error) {
    await reportJobFailure(folder, error, deps.log, 'compute credit for');
    return;
  }
  meter.logTotals(deps.log);
  report(root, request.method, result, cancelled, deps, meter.summary());
}

function report(
  root: string,
  method: CreditMethodName,
  result: CreditJobResult,
  cancelled: boolean,
  deps: RecomputeCreditDeps,
  replay: string | undefined,
): void {
  for (const line of deps.formatCreditReport(root, method, result)) deps.log.info(line);
  // Not-identifiable episodes are summarised by the report (reason and remedy); failures are listed.
  for (const run of result.runs)
    for (const f of run.failures.filter((x) => x.status !== 'not-identifiable').slice(0, 20))
      deps.log.warn(`${f.where}: ${run.run.name || '(root)'}: ${f.reason}`);
  const computed = result.runs.reduce((sum, r) => sum + r.computed, 0);
  const text = `${creditHeadline(method, result, cancelled)}${replay ? `; ${replay}` : ''}`;
  const show = computed === 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(text, showLogAction).then((choice) => {
    if (choice === showLogAction) deps.log.show();
  });
  if (computed > 0) deps.onCredited?.(vscode.Uri.file(root), result);
}

/**
 * The notification after a pass, e.g. `LOO credit: 1,280 episodes; verifier 0.259 → 0.000; 2
 * episodes failed`: the episodes computed and the agent whose credit moved most from the early to
 * the late quarter of training.
 */
export function creditHeadline(method: CreditMethodName, result: CreditJobResult, cancelled = false): string {
  const computed = result.runs.reduce((sum, r) => sum + r.computed, 0);
  const unidentified = result.runs.reduce((sum, r) => sum + r.unidentified, 0);
  const failed = result.runs.reduce((sum, r) => sum + r.failures.length, 0) - unidentified;
  const moved = result.runs
    .flatMap((r) => r.agents)
    .filter((a) => Number.isFinite(a.early) && Number.isFinite(a.late))
    .reduce<{ agent: string; early: number; late: number } | undefined>(
      (best, a) => (best === undefined || Math.abs(a.late - a.early) > Math.abs(best.late - best.early) ? a : best),
      undefined,
    );
  const parts = [
    `${methodLabels[method]} credit${cancelled ? ' (cancelled)' : ''}: ${plural(computed, 'episode')}`,
    ...(moved ? [`${moved.agent} ${moved.early.toFixed(3)} → ${moved.late.toFixed(3)}`] : []),
    ...(unidentified > 0
      ? [`${plural(unidentified, 'episode')} not identifiable (see the log for why and what would answer it)`]
      : []),
    ...(failed > 0 ? [`${plural(failed, 'episode')} failed`] : []),
  ];
  return parts.join('; ');
}

/**
 * Logs a fatal error of a job over `folder` and shows it as an actionable message: index the folder
 * first when it has no index, otherwise what failed with a Show Log button. `action` completes
 * "Credit Lens could not …" (e.g. `compute credit for`, `audit`).
 */
export async function reportJobFailure(
  folder: vscode.Uri,
  error: unknown,
  log: vscode.LogOutputChannel,
  action: string,
): Promise<void> {
  const root = folder.fsPath;
  const message = error instanceof Error ? error.message : String(error);
  log.error(`Could not ${action} ${root}: ${message}`);
  if (error instanceof NoIndexError) {
    const choice = await vscode.window.showErrorMessage(
      `${folderLabel(folder)} has no Credit Lens index yet: index it first.`,
      indexAction,
    );
    if (choice === indexAction) await vscode.commands.executeCommand(indexRunFolderId, folder);
    return;
  }
  const choice = await vscode.window.showErrorMessage(
    `Credit Lens could not ${action} ${root}: ${message}. See the Credit Lens log for details.`,
    showLogAction,
  );
  if (choice === showLogAction) log.show();
}
