import type { ChatMessage } from '../../core/chat';
import { isModelOutput, type ReplayAgent } from './replayRoster';
import type { ConversationMessage, PromptPart, VisibilityRule } from './replayTypes';

/** The default visibility rule: every agent sees every earlier message. */
export const seesEverything: VisibilityRule = () => true;

/** What an agent's request is built from, besides the conversation. */
export interface ViewContext {
  readonly roster: ReadonlyMap<string, ReplayAgent>;
  /** The task prompt, sent as the first user message; undefined when the conversation itself carries it. */
  readonly task: string | undefined;
  readonly visibility: VisibilityRule;
}

/**
 * The messages of `viewer`'s request (docs/replay.md, "Replay plans"): its system prompt, the task
 * as a `user` message, then every earlier message it sees — its own model output as `assistant`,
 * everything else as `user` with `name` set to the speaker. `system` messages of models are private
 * (the viewer's own one is its system prompt); those of tools, environments and `system` speakers
 * are instructions to everyone and stay `system` messages.
 */
export function agentView(
  viewer: ReplayAgent,
  conversation: readonly ConversationMessage[],
  context: ViewContext,
): PromptPart[] {
  const parts: PromptPart[] = [];
  if (viewer.systemPrompt !== undefined) parts.push({ message: { role: 'system', content: viewer.systemPrompt } });
  if (context.task !== undefined) parts.push({ message: { role: 'user', content: context.task } });
  conversation.forEach((message, index) => {
    if (!context.visibility(viewer.name, message, index)) return;
    const chat = viewedMessage(viewer, message, context.roster.get(message.agent));
    if (chat)
      parts.push({ message: chat, ...(message.tokenCount !== undefined ? { loggedTokens: message.tokenCount } : {}) });
  });
  return parts;
}

function viewedMessage(
  viewer: ReplayAgent,
  message: ConversationMessage,
  author: ReplayAgent | undefined,
): ChatMessage | undefined {
  if (message.role === 'system')
    return author?.isModel === false ? { role: 'system', content: message.content } : undefined;
  if (message.agent === viewer.name)
    return isModelOutput(message, author)
      ? { role: 'assistant', content: message.content }
      : { role: 'user', content: message.content };
  return { role: 'user', content: message.content, name: wireName(message.agent) };
}

/**
 * An agent name as the OpenAI `name` field allows it (letters, digits, `_` and `-`, at most 64
 * characters): other characters become `_`.
 */
export function wireName(agent: string): string {
  return agent.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || '_';
}
