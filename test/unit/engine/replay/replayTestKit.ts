// Shared by the replay client tests: a request, a deterministic agent for the local server, a
// server that is always closed, and a stopwatch for "fails within" assertions.
import type { ChatRequest, SamplingParams } from '../../../../src/core/chat';
import {
  startLocalChatServer,
  type LocalChatServer,
  type LocalChatServerOptions,
} from '../../../../src/engine/evaluators/replay/localChatServer';
import type { LocalChatRequest } from '../../../../src/engine/evaluators/replay/localChatProtocol';

/** A solver's request: a system prompt and the planner's message naming the numbers to add. */
export function solverRequest(
  numbers: readonly number[] = [2, 3],
  sampling: SamplingParams = { temperature: 0, seed: 7 },
): ChatRequest {
  return {
    model: 'credit-lens-demo',
    messages: [
      { role: 'system', content: 'You are the solver. Add the numbers the planner gives.' },
      { role: 'user', content: `Add ${numbers.join(' and ')}.`, name: 'planner' },
    ],
    sampling,
  };
}

/** A deterministic agent: "The answer is <sum of the integers in the last message>." */
export function adder(request: LocalChatRequest): string {
  const last = request.messages[request.messages.length - 1]?.content ?? '';
  const sum = (last.match(/-?\d+/g) ?? []).reduce((total, n) => total + Number(n), 0);
  return `The answer is ${sum}.`;
}

/** Runs `fn` against a fresh local server (the adder unless told otherwise) and always closes it. */
export async function withServer<T>(
  options: Partial<LocalChatServerOptions>,
  fn: (server: LocalChatServer) => Promise<T>,
): Promise<T> {
  const server = await startLocalChatServer({ reply: adder, ...options });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** A base URL on loopback where nothing listens (a port a server held a moment ago). */
export async function downUrl(): Promise<{ url: string; port: number }> {
  const server = await startLocalChatServer({ reply: adder });
  await server.close();
  return { url: server.url, port: server.port };
}

/** How `promise` settled and how long it took. */
export async function settle<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: Error }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** Waits until `condition()` holds, polling every 10 ms; fails after `ms`. */
export async function eventually(condition: () => boolean, ms = 2000): Promise<void> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
