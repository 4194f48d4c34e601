import {
  runCreditJob,
  type CreditJobHooks,
  type CreditJobOptions,
  type CreditJobResult,
} from '../../engine/credit/creditJob';
import { coalitionMethods, perMessageMethods, type CreditMethodName } from '../../engine/credit/creditMethod';
import type { EvaluatorView } from '../../protocol/episodePanel';
import type { CreditLensConfig } from '../config';
import type { GatedEvaluator } from '../trust';

/** Runs a credit pass; `runCreditJob` unless a test injects another. */
export type RunCredit = (options: CreditJobOptions, hooks?: CreditJobHooks) => Promise<CreditJobResult>;

/** A recompute a panel asks for: one method over a run, or over some episodes. */
export interface PanelCreditRequest {
  readonly root: string;
  readonly dbPath: string | undefined;
  readonly method: CreditMethodName;
  readonly config: CreditLensConfig;
  /** The evaluator under workspace trust (trust.ts currentEvaluatorChoice). */
  readonly evaluator: GatedEvaluator;
  readonly episodes?: readonly number[];
  /** Run name (folder relative to the indexed folder) to restrict the pass to. */
  readonly run?: string;
}

/** What a panel recompute did, for the progress notification. */
export interface PanelCreditOutcome {
  readonly computed: number;
  readonly failures: readonly string[];
  readonly evaluatorCalls: number;
  readonly cached: number;
}

/** Whether `method` needs coalition values, hence possibly an evaluator. */
export function methodNeedsEvaluator(method: CreditMethodName): boolean {
  return coalitionMethods.has(method) || perMessageMethods.has(method);
}

/**
 * Runs the credit engine for a panel with the configured evaluator (a workspace command only when
 * the workspace is trusted) and reports what it did.
 */
export async function recomputeForPanel(
  request: PanelCreditRequest,
  hooks: CreditJobHooks,
  runCredit: RunCredit = runCreditJob,
): Promise<PanelCreditOutcome> {
  const { root, dbPath, method, config } = request;
  const options: CreditJobOptions = {
    root,
    method,
    concurrency: config.evaluator.concurrency,
    ...(dbPath !== undefined ? { dbPath } : {}),
    ...(methodNeedsEvaluator(method) ? { evaluator: request.evaluator.choice } : {}),
    ...(request.episodes ? { episodes: request.episodes } : {}),
    ...(request.run !== undefined ? { run: request.run } : {}),
  };
  const result = await runCredit(options, hooks);
  return {
    computed: result.runs.reduce((sum, r) => sum + r.computed, 0),
    failures: result.runs.flatMap((r) => r.failures.map((f) => `${f.where}: ${f.reason}`)),
    evaluatorCalls: result.values.evaluated,
    cached: result.values.cached,
  };
}

/**
 * The evaluator a recompute of an episode would use. The built-in final-answer evaluator needs a
 * ground truth; a refused workspace command says why.
 */
export function evaluatorView(config: CreditLensConfig, gated: GatedEvaluator, hasGroundTruth: boolean): EvaluatorView {
  if (gated.choice.kind === 'command')
    return { configured: true, description: `command ${gated.choice.command}`, reason: null };
  const description = `built-in ${config.evaluator.builtin}`;
  if (gated.warning !== undefined) return { configured: hasGroundTruth, description, reason: gated.warning };
  if (!hasGroundTruth) {
    return {
      configured: false,
      description,
      reason: `The built-in ${config.evaluator.builtin} evaluator compares final answers with the ground truth, and this episode logs none. Set creditLens.evaluator.command to use your own evaluator.`,
    };
  }
  return { configured: true, description, reason: null };
}
