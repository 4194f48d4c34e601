import type { ChatRequest, SamplingParams } from '../../../core/chat';
import { playDemoAgent } from '../../../demo/demoAgents';
import type { LocalChatRequest } from './localChatProtocol';
import { startLocalChatServer, type LocalChatServer, type LocalChatServerOptions } from './localChatServer';

/** A chat request as the local server received it, as the ChatRequest a deterministic agent reads (sampling from the body). */
export function chatRequestOf(request: LocalChatRequest): ChatRequest {
  const body = request.body;
  const sampling: Record<string, number> = {};
  const fields: [keyof SamplingParams, string][] = [
    ['temperature', 'temperature'],
    ['topP', 'top_p'],
    ['maxTokens', 'max_tokens'],
    ['seed', 'seed'],
  ];
  for (const [field, key] of fields) {
    const value = body[key];
    if (typeof value === 'number' && Number.isFinite(value)) sampling[field] = value;
  }
  return { model: request.model, messages: request.messages, sampling };
}

/**
 * A local OpenAI-compatible server (loopback) that plays `agent`, a deterministic program reading a
 * {@link ChatRequest}: by default the demo's agents ({@link playDemoAgent}), so a replay of the demo
 * needs no GPU. `credit-lens serve-demo-agents` and the tests start it.
 */
export function startAgentServer(
  options: Omit<LocalChatServerOptions, 'reply'> & { readonly agent?: (request: ChatRequest) => string } = {},
): Promise<LocalChatServer> {
  const { agent = playDemoAgent, ...server } = options;
  return startLocalChatServer({ ...server, reply: (request) => agent(chatRequestOf(request)) });
}
