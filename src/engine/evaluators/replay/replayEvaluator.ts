import type { ChatClient } from '../../../core/chat';
import type { CreditEpisode } from '../../../core/creditInput';
import type { AgentDecl, Episode } from '../../../core/episode';
import type { EvaluatorEpisode, FinalAnswerOptions } from '../../../credit/evaluator/finalAnswerEvaluator';
import { finalAnswerCannotScore } from '../../../credit/evaluator/finalAnswerScope';
import { agentsIntervention, prefixIntervention } from '../../../credit/replay/maskIntervention';
import { planReplay } from '../../../credit/replay/planReplay';
import { estimateReplayCost, totalReplayCost, type ReplayCost } from '../../../credit/replay/replayCost';
import { replayReward } from '../../../credit/replay/replayReward';
import { replaySamples } from '../../../credit/replay/replaySamples';
import type {
  ConversationMessage,
  ReplayConfig,
  ReplayIntervention,
  ReplayPlan,
} from '../../../credit/replay/replayTypes';
import { runReplay, type CompleteText } from '../../../credit/replay/runReplay';
import { readEpisode } from '../../../ingest/readEpisode';
import { evaluatorEpisode } from '../builtinEvaluator';
import {
  EvaluationError,
  maskMembers,
  type EvaluationRequest,
  type EvaluationResult,
  type Evaluator,
} from '../evaluator';
import { chatEndpoint } from './chatEndpoint';
import { openAiChatClient, type OpenAiChatClientOptions } from './openAiChatClient';
import { replayFingerprint } from './replayFingerprint';
import type { ReplayOptions } from './replayOptions';

/** What the host gives the replay evaluator besides its options; none of it is stored or logged. */
export interface ReplayDeps {
  /** The API key (VS Code's secret storage); wins over the environment variable `options.apiKeyEnv`. */
  readonly apiKey?: string;
  /** Where `options.apiKeyEnv` is looked up (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Aborts every call in flight or queued: the engine's cancellation. */
  readonly signal?: AbortSignal;
  /** The run's roster from run.json, for trace lines that declare none (system prompts, policies, defaults). */
  readonly roster?: readonly AgentDecl[];
  /** A client to use instead of one built from the options (tests). */
  readonly client?: ChatClient;
  /** Client settings the options do not carry (tests: a short backoff, fewer retries). */
  readonly clientOptions?: Partial<
    Pick<OpenAiChatClientOptions, 'retries' | 'backoff' | 'breaker' | 'idleTimeoutMs' | 'fetch'>
  >;
}

/** One replay session: the user's options, the checker, the planner's config and the client. */
export interface ReplayContext {
  readonly options: ReplayOptions;
  readonly root: string;
  readonly checker: FinalAnswerOptions;
  readonly config: ReplayConfig;
  readonly client: ChatClient;
  readonly deps: ReplayDeps;
}

/**
 * The replay evaluator (docs/replay.md, "The evaluator"): for each mask it re-reads the episode,
 * plans the counterfactual (kind `agents`: the absent agents removed, or replaced by their default
 * action in mode `default`; kind `messages`: a prefix kept and the rest regenerated), regenerates
 * every later message of the remaining agents on the user's OpenAI-compatible server, K times
 * (`samples`), and scores the new conversation with the final-answer checker; the value is the
 * mean. Its values are `replayed`, so leave-one-out is exact. One client per evaluator; the key
 * comes from `deps.apiKey` or the environment and goes only into the Authorization header.
 */
export function replayEvaluator(
  options: ReplayOptions,
  root: string,
  checker: FinalAnswerOptions,
  deps: ReplayDeps = {},
): Evaluator {
  const context = replayContext(options, root, checker, deps);
  return {
    fingerprint: replayContextFingerprint(context),
    label: `the replay evaluator at ${chatEndpoint(options.url).display}`,
    replays: true,
    intervention: options.mode,
    cannotScore: (episode) => finalAnswerCannotScore(episode.groundTruth, episode.format),
    evaluate: (request) => evaluateByReplay(context, request),
    estimate: (request) => estimateReplay(context, request),
    usage: () => context.client.stats(),
    close: () => context.client.close(),
  };
}

/** A replay session (one client) for the evaluator or for replayed influence (engine/influence). */
export function replayContext(
  options: ReplayOptions,
  root: string,
  checker: FinalAnswerOptions,
  deps: ReplayDeps = {},
): ReplayContext {
  const config = replayConfig(options);
  return { options, root, checker, config, client: deps.client ?? clientOf(options, deps), deps };
}

/** The fingerprint the evaluator's values are cached under (docs/replay.md, "Cache"). */
export function replayContextFingerprint(context: ReplayContext): string {
  return replayFingerprint(context.options, context.checker, context.config, context.deps.roster);
}

/**
 * The K (`samples`) replayed conversations of one intervention of `episode`: replay sample j uses
 * seed + j; a plan that regenerates nothing gives the logged conversation once, without a call.
 */
export async function replayConversations(
  context: ReplayContext,
  episode: Episode,
  intervention: ReplayIntervention,
): Promise<ConversationMessage[][]> {
  const planned = planReplay(episode, intervention, context.config);
  if (!planned.ok) throw new Error(planned.error);
  const plan = planned.value;
  const complete = completeText(context);
  return Promise.all(
    Array.from({ length: samplesOf(context, plan) }, (_, sample) => runReplay(plan, complete, sample)),
  );
}

/** The client's completions as text, cancelled by the session's signal. */
function completeText(context: ReplayContext): CompleteText {
  return async (chat) => (await context.client.complete(chat, context.deps.signal)).content;
}

/** The planner's config from the user's options. */
export function replayConfig(options: ReplayOptions): ReplayConfig {
  return {
    ...(options.models ? { models: options.models } : {}),
    ...(options.model !== undefined ? { defaultModel: options.model } : {}),
    sampling: options.sampling,
  };
}

function clientOf(options: ReplayOptions, deps: ReplayDeps): ChatClient {
  const apiKey = deps.apiKey ?? (deps.env ?? process.env)[options.apiKeyEnv];
  return openAiChatClient({
    baseUrl: options.url,
    ...(apiKey ? { apiKey } : {}),
    stream: options.stream,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    ...deps.clientOptions,
  });
}

async function evaluateByReplay(context: ReplayContext, request: EvaluationRequest): Promise<EvaluationResult> {
  const { episode, base } = await readForReplay(context, request.episode);
  const rewards = new Map<bigint, number>();
  const errors: string[] = [];
  await Promise.all(
    request.masks.map(async (mask) => {
      try {
        rewards.set(mask, await replayedValue(context, request, episode, base, mask));
      } catch (error) {
        errors.push(
          `replaying ${describe(request, mask)} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }),
  );
  if (errors.length > 0) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    throw new EvaluationError(`${errors[0]}${more}`, rewards, true);
  }
  return { rewards, replayed: true };
}

/** The mean reward of K replays of one mask (one when the plan regenerates nothing). */
async function replayedValue(
  context: ReplayContext,
  request: EvaluationRequest,
  episode: Episode,
  base: EvaluatorEpisode,
  mask: bigint,
): Promise<number> {
  if (request.kind === 'agents' && mask === 0n) return 0; // v(∅) = 0, as without replay
  const plan = planFor(context, request, episode, mask);
  const complete = completeText(context);
  const presentMask = request.kind === 'agents' ? mask : undefined;
  const rewards = await Promise.all(
    Array.from({ length: samplesOf(context, plan) }, async (_, sample) =>
      replayReward(base, await runReplay(plan, complete, sample), context.checker, presentMask),
    ),
  );
  return replaySamples(rewards).mean;
}

async function estimateReplay(context: ReplayContext, request: EvaluationRequest): Promise<ReplayCost> {
  const read = await readForReplay(context, request.episode).catch(() => undefined);
  if (!read) return { calls: 0, promptTokens: 0, completionTokens: 0 }; // it fails without a call
  const costs = request.masks.flatMap((mask) => {
    if (request.kind === 'agents' && mask === 0n) return [];
    try {
      const plan = planFor(context, request, read.episode, mask);
      return [estimateReplayCost(plan, samplesOf(context, plan))];
    } catch {
      return [];
    }
  });
  return totalReplayCost(costs);
}

function planFor(context: ReplayContext, request: EvaluationRequest, episode: Episode, mask: bigint): ReplayPlan {
  const intervention =
    request.kind === 'agents'
      ? agentsIntervention(
          request.episode.agents.map((a) => a.name),
          mask,
          context.options.mode,
        )
      : prefixIntervention(mask, episode.messages.length);
  if (!intervention.ok) throw new Error(intervention.error);
  const plan = planReplay(episode, intervention.value, context.config);
  if (!plan.ok) throw new Error(plan.error);
  return plan.value;
}

/** K replays when the plan calls the model, one when it only re-scores the logged text. */
function samplesOf(context: ReplayContext, plan: ReplayPlan): number {
  return plan.steps.some((s) => s.kind === 'generate') ? context.options.samples : 1;
}

/** The episode's record re-read from its trace (roster from run.json when the line has none) and the checker's view of it. */
export async function readForReplay(
  context: ReplayContext,
  credit: CreditEpisode,
): Promise<{ episode: Episode; base: EvaluatorEpisode }> {
  const roster = context.deps.roster;
  const read = await readEpisode(context.root, roster ? { ...credit, defaultRoster: roster } : credit);
  if (!read.ok) throw new Error(read.error);
  return { episode: read.value, base: evaluatorEpisode(credit, read.value) };
}

/** A mask in words, for errors: the agents removed, or the prefix kept. */
function describe(request: EvaluationRequest, mask: bigint): string {
  if (request.kind === 'messages') {
    const kept = maskMembers(mask).length;
    return kept === 0 ? 'the whole episode from its prompt' : `the episode after its first ${kept} messages`;
  }
  const removed = request.episode.agents.filter((_, i) => ((mask >> BigInt(i)) & 1n) === 0n).map((a) => a.name);
  return removed.length === 0 ? 'the episode' : `the episode without ${removed.join(', ')}`;
}
