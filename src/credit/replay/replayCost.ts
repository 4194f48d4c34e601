import { estimatedTokensOf } from '../../core/chat';
import type { ConversationMessage, ReplayPlan } from './replayTypes';

/** What running a plan (or several) is expected to cost. */
export interface ReplayCost {
  readonly calls: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** Tokens of a text without a tokeniser: one per 4 characters, rounded up. */
export function estimatedTokens(text: string): number {
  return estimatedTokensOf(text.length);
}

/**
 * The cost of running `plan` `samples` times, before running it: one call per regenerated message;
 * each prompt counted from the messages its request would hold if every regenerated message were as
 * long as the logged one, and each completion as long as the logged message it regenerates. A
 * message's logged `tokenCount` is used where present, else {@link estimatedTokens}; the chat
 * template's few tokens per message are not counted.
 */
export function estimateReplayCost(plan: ReplayPlan, samples = 1): ReplayCost {
  const conversation: ConversationMessage[] = [...plan.prefix];
  let calls = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  for (const step of plan.steps) {
    if (step.kind === 'keep') {
      conversation.push(step.message);
      continue;
    }
    calls++;
    for (const part of step.promptParts(conversation))
      promptTokens += part.loggedTokens ?? estimatedTokens(part.message.content);
    completionTokens += step.logged.tokenCount ?? estimatedTokens(step.logged.content);
    conversation.push(step.logged);
  }
  return { calls: calls * samples, promptTokens: promptTokens * samples, completionTokens: completionTokens * samples };
}

/** The sum of several estimates (a whole credit pass). */
export function totalReplayCost(costs: Iterable<ReplayCost>): ReplayCost {
  let total: ReplayCost = { calls: 0, promptTokens: 0, completionTokens: 0 };
  for (const c of costs)
    total = {
      calls: total.calls + c.calls,
      promptTokens: total.promptTokens + c.promptTokens,
      completionTokens: total.completionTokens + c.completionTokens,
    };
  return total;
}
