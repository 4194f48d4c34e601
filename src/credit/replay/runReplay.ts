import type { ChatRequest } from '../../core/chat';
import type { ConversationMessage, ReplayPlan } from './replayTypes';

/** Generates one completion's text; rejects when the model server fails. */
export type CompleteText = (request: ChatRequest) => Promise<string>;

/**
 * Runs a replay plan: the kept prefix, then each step in order — a kept message is appended as it
 * is, a regenerated one is appended with the text `complete` returns for its request, built from
 * the conversation so far. Calls are sequential (each request needs the messages before it).
 * `sample` (0-based) picks the seed of replay sample j of `samples = K`. Resolves with the new
 * conversation; rejects with the first error `complete` rejects with.
 */
export async function runReplay(plan: ReplayPlan, complete: CompleteText, sample = 0): Promise<ConversationMessage[]> {
  const conversation: ConversationMessage[] = [...plan.prefix];
  for (const step of plan.steps) {
    if (step.kind === 'keep') {
      conversation.push(step.message);
      continue;
    }
    const content = await complete(step.buildRequest(conversation, sample));
    const channel = step.logged.channel;
    conversation.push({
      agent: step.agent,
      role: 'assistant',
      content,
      origin: 'replayed',
      ...(channel !== undefined ? { channel } : {}),
    });
  }
  return conversation;
}
