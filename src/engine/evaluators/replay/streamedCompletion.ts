import type { ChatCompletion, ChatRequest } from '../../../core/chat';
import { isRecord } from '../../../ingest/importers/formats/common/json';
import { fail, type AttemptFailure } from './chatErrors';
import { completion, describeErrorBody, finishReason, firstChoice, isErrorObject, parseJsonObject } from './chatWire';
import { SseParser } from './sseParser';
import { streamStopped } from './attemptFailures';
import type { AttemptDeadline } from './attemptDeadline';

/** How long a stream may take to end after `data: [DONE]` before it is cut (the answer is complete). */
const drainAfterDoneMs = 1000;

/** What a stream has said so far. */
interface StreamState {
  readonly parts: string[];
  finish: string | undefined;
  /** The last `usage` object seen (the include_usage chunk). */
  usage: unknown;
  /** Data events other than [DONE]. */
  chunks: number;
  done: boolean;
}

/** The stream's progress, for the idle-timeout message when reading is cut by the deadline. */
export interface StreamProgress {
  chunks: number;
}

/**
 * Reads a Chat Completions event stream into a completion: `choices[0].delta.content` concatenated,
 * the last `finish_reason`, the usage chunk (`stream_options.include_usage`). Fails when the stream
 * ends or is cut before `[DONE]`, on a chunk that is not JSON, and on an error event.
 */
export async function readStreamedCompletion(
  body: ReadableStream<Uint8Array>,
  request: ChatRequest,
  deadline: AttemptDeadline,
  idleTimeoutMs: number,
  progress: StreamProgress,
): Promise<ChatCompletion> {
  const state: StreamState = { parts: [], finish: undefined, usage: undefined, chunks: 0, done: false };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  deadline.armIdle(idleTimeoutMs);
  for (;;) {
    let read: Awaited<ReturnType<typeof reader.read>>;
    try {
      read = await reader.read();
    } catch (error) {
      if (state.done) break; // cut while draining after [DONE]: the answer is whole
      if (deadline.cause) throw error; // the caller maps timeouts and cancellation
      fail(streamStopped(state.chunks, error));
    }
    deadline.touch();
    const events = read.done
      ? [...parser.push(decoder.decode()), ...parser.end()]
      : parser.push(decoder.decode(read.value, { stream: true }));
    for (const data of events) onEvent(state, data);
    progress.chunks = state.chunks;
    if (read.done) break;
    // Keep reading to the end of the response so the connection can be reused, but not for long.
    if (state.done) deadline.armIdle(drainAfterDoneMs);
  }
  if (!state.done) fail(streamStopped(state.chunks));
  return completion(state.parts.join(''), state.finish, state.usage, request);
}

function onEvent(state: StreamState, data: string): void {
  if (state.done) return;
  if (data.trim() === '[DONE]') {
    state.done = true;
    return;
  }
  state.chunks++;
  const chunk = parseJsonObject(data, `stream chunk ${state.chunks}`);
  if (isErrorObject(chunk)) fail(errorEvent(data));
  const choice = firstChoice(chunk);
  const delta = choice?.delta;
  const content = isRecord(delta) ? delta.content : undefined;
  if (typeof content === 'string') state.parts.push(content);
  state.finish = finishReason(choice) ?? state.finish;
  if (isRecord(chunk.usage)) state.usage = chunk.usage;
}

function errorEvent(data: string): AttemptFailure {
  return {
    kind: 'http',
    detail: `the stream carried an error: ${describeErrorBody(data)}`,
    retryable: false,
    serverDown: false,
  };
}
