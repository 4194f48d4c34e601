import type { ChatClientStats } from '../../core/chat';
import type { EvaluatorChoice } from '../../engine/credit/chooseEvaluator';
import { estimateReplay, type CreditJobHooks, type CreditJobOptions } from '../../engine/credit/creditJob';

// What the extension assumes of the engine's replay evaluator (src/engine, built beside this
// folder): the three seams below. Each is the smallest shape the VS Code side needs; the engine's
// functions are connected to them in extension.ts (see `replayEngine`).

/** The replay evaluator as the engine's `EvaluatorChoice` names it. */
export type ReplayChoice = Extract<EvaluatorChoice, { kind: 'replay' }>;

/**
 * Seam 1: the replay choice carrying the API key from VS Code's secret storage, in memory for one
 * pass. The engine is assumed to send `apiKey` when set, else `process.env[options.apiKeyEnv]`,
 * and to keep it out of fingerprints, the index, logs and errors.
 */
export type KeyedReplayChoice = ReplayChoice & { readonly apiKey?: string };

/** What a replay pass would send, before it sends anything. */
export interface ReplayEstimate {
  readonly calls: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/**
 * Seam 2: the cost of the credit pass `options` would run (its `evaluator` is the replay choice,
 * without the key): the calls its uncached counterfactuals need and their tokens.
 */
export type EstimateReplay = (options: CreditJobOptions) => Promise<ReplayEstimate>;

/**
 * Seam 3: the credit job's hooks plus what a replay needs: `signal` aborts the calls in flight
 * when the user cancels (`isCancelled` stays the check between episodes), and `onReplayStats`
 * reports the client's totals (calls, tokens, busy time) as they grow.
 */
export interface ReplayJobHooks extends CreditJobHooks {
  readonly signal?: AbortSignal;
  readonly onReplayStats?: (stats: ChatClientStats) => void;
}

/** The engine's replay functions the extension calls (a dry run of the credit job). */
export const replayEngine: { readonly estimateReplay: EstimateReplay } = { estimateReplay };
