import type { EvaluatorChoice } from '../../engine/credit/chooseEvaluator';
import {
  runCreditJob,
  type CreditJobHooks,
  type CreditJobOptions,
  type CreditJobResult,
} from '../../engine/credit/creditJob';
import { coalitionMethods, perMessageMethods, type CreditMethodName } from '../../engine/credit/creditMethod';
import type { EvaluatorKind, EvaluatorOptionView, EvaluatorView } from '../../protocol/episodePanel';
import type { CreditLensConfig } from '../config';
import { replayEndpoint } from '../replay/replayEndpoint';
import { confirmPass, PassMeter, type ReplayDeps, type ReplayStage } from '../replay/replayPass';
import type { GatedEvaluator } from '../trust';

/** Runs a credit pass; `runCreditJob` unless a test injects another. */
export type RunCredit = (options: CreditJobOptions, hooks?: CreditJobHooks) => Promise<CreditJobResult>;

/** A recompute a panel asks for: one method over a run, or over some episodes. */
export interface PanelCreditRequest {
  readonly root: string;
  readonly dbPath: string | undefined;
  readonly method: CreditMethodName;
  readonly config: CreditLensConfig;
  /** The evaluator, already gated by workspace trust (trust.ts; {@link evaluatorOfKind} picks the one asked for). */
  readonly evaluator: EvaluatorChoice;
  readonly episodes?: readonly number[];
  /** Run name (folder relative to the indexed folder) to restrict the pass to. */
  readonly run?: string;
}

/** What a panel's recompute reports while it runs. */
export interface PanelCreditHooks extends CreditJobHooks {
  /** Cancels the pass: aborts a replay's calls in flight (`isCancelled` is checked between episodes). */
  readonly signal: AbortSignal;
  /** A replay is being estimated, or waits for the user's confirmation (`text` is the question). */
  readonly onStage?: (stage: ReplayStage, text: string) => void;
  /** A replay's calls so far against the estimate, and the progress line (`12 of ~40 calls · …`). */
  readonly onReplayProgress?: (calls: { readonly done: number; readonly total: number }, text: string) => void;
}

/** The runner, the estimate and the key store (each injectable by tests). */
export interface PanelCreditDeps extends ReplayDeps {
  readonly runCredit?: RunCredit;
}

/** What a panel recompute did, for the progress notification. */
export interface PanelCreditOutcome {
  readonly computed: number;
  /** The first failed or not-identifiable episodes (up to 1,000 a run), as `file:line: reason`. */
  readonly failures: readonly string[];
  /** Every failed or not-identifiable episode, counted. */
  readonly failureCount: number;
  readonly evaluatorCalls: number;
  readonly cached: number;
  /** For a replay: the closing note (`replayed on 127.0.0.1:8000: 40 of ~40 calls · 31.2 k tokens · 42 s`). */
  readonly replay?: string;
}

/** Whether `method` needs coalition values, hence possibly an evaluator. */
export function methodNeedsEvaluator(method: CreditMethodName): boolean {
  return coalitionMethods.has(method) || perMessageMethods.has(method);
}

/**
 * Runs the credit engine for a panel with the chosen evaluator (a workspace command or a replay only
 * when the workspace is trusted). A replay is estimated and confirmed first (replay/replayPass.ts);
 * undefined when the user cancelled at the confirmation.
 */
export async function recomputeForPanel(
  request: PanelCreditRequest,
  hooks: PanelCreditHooks,
  deps: PanelCreditDeps,
): Promise<PanelCreditOutcome | undefined> {
  const { root, dbPath, method, config } = request;
  const options: CreditJobOptions = {
    root,
    method,
    concurrency: config.evaluator.concurrency,
    ...(dbPath !== undefined ? { dbPath } : {}),
    ...(methodNeedsEvaluator(method) ? { evaluator: request.evaluator } : {}),
    ...(request.episodes ? { episodes: request.episodes } : {}),
    ...(request.run !== undefined ? { run: request.run } : {}),
  };
  const pass = await confirmPass(options, deps, hooks.onStage);
  if (!pass || hooks.signal.aborted) return undefined;
  const meter = new PassMeter(pass.replay);
  const { signal, onStage: _stage, onReplayProgress, ...job } = hooks;
  const result = await (deps.runCredit ?? runCreditJob)(
    pass.options,
    meter.hooks(job, signal, () => onReplayProgress?.(meter.calls, meter.progress())),
  );
  meter.logTotals(deps.log);
  const summary = meter.summary();
  return {
    computed: result.runs.reduce((sum, r) => sum + r.computed, 0),
    failures: result.runs.flatMap((r) => r.failures.map((f) => `${f.where}: ${f.reason}`)),
    failureCount: result.runs.reduce((sum, r) => sum + r.failed + r.unidentified, 0),
    evaluatorCalls: result.values.evaluated,
    cached: result.values.cached,
    ...(summary !== undefined ? { replay: summary } : {}),
  };
}

/** The kind of evaluator a choice is, as the Episode view names it. */
export function evaluatorKind(choice: EvaluatorChoice): EvaluatorKind {
  return choice.kind === 'command' ? 'command' : choice.kind === 'replay' ? 'replay' : 'checker';
}

/**
 * The evaluator of `kind` among those `gated` offers (its choice, then its fallback); the default
 * choice when `kind` is absent; undefined when that kind is not offered (e.g. a replay refused).
 */
export function evaluatorOfKind(gated: GatedEvaluator, kind: EvaluatorKind | undefined): EvaluatorChoice | undefined {
  if (kind === undefined) return gated.choice;
  return [gated.choice, gated.fallback].find((c) => c !== undefined && evaluatorKind(c) === kind);
}

/**
 * The evaluator a recompute of an episode would use, and the others it offers. The built-in
 * final-answer evaluator needs a ground truth (so does a replay: the checker scores its new final
 * answer); a refused workspace command or replay says why.
 */
export function evaluatorView(config: CreditLensConfig, gated: GatedEvaluator, hasGroundTruth: boolean): EvaluatorView {
  const main = optionView(config, gated.choice);
  const offered = [main, ...(gated.fallback ? [optionView(config, gated.fallback)] : [])];
  const base = { description: main.description, kind: main.kind, endpoint: main.endpoint, options: offered };
  if (main.kind === 'command') return { ...base, configured: true, reason: null };
  if (gated.warning !== undefined) return { ...base, configured: hasGroundTruth, reason: gated.warning };
  if (!hasGroundTruth) {
    const who =
      main.kind === 'replay'
        ? `A replay is scored by the built-in ${config.evaluator.builtin} evaluator, which compares`
        : `The built-in ${config.evaluator.builtin} evaluator compares`;
    return {
      ...base,
      configured: false,
      reason: `${who} final answers with the ground truth, and this episode logs none. Set creditLens.evaluator.command to use your own evaluator.`,
    };
  }
  return { ...base, configured: true, reason: null };
}

function optionView(config: CreditLensConfig, choice: EvaluatorChoice): EvaluatorOptionView {
  if (choice.kind === 'command') return { kind: 'command', description: `command ${choice.command}`, endpoint: null };
  if (choice.kind === 'replay') {
    const { host } = replayEndpoint(choice.options.url);
    return { kind: 'replay', description: `replay on ${host}`, endpoint: host };
  }
  return { kind: 'checker', description: `built-in ${config.evaluator.builtin}`, endpoint: null };
}
