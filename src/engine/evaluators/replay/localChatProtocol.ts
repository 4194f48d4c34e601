import type { ChatMessage } from '../../../core/chat';
import { isRecord, type JsonRecord } from '../../../ingest/importers/formats/common/json';

/** A chat request as the local server received it, for its `reply` function. */
export interface LocalChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly stream: boolean;
  /** `stream_options.include_usage`: a usage chunk ends the stream. */
  readonly includeUsage: boolean;
  readonly maxTokens?: number;
  /** The whole parsed body (temperature, top_p, seed, … as sent). */
  readonly body: JsonRecord;
}

/** An answer in the Chat Completions shapes, before it is written as JSON or as events. */
export interface LocalAnswer {
  readonly id: string;
  readonly model: string;
  readonly content: string;
  readonly finishReason: 'stop' | 'length';
  /** Undefined: the server reports no usage (a fault). */
  readonly usage?: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly total_tokens: number;
  };
}

/**
 * The local server's tokens: each run of non-space characters with the spaces before it, so counts
 * are exact and easy to state ("a 40-token answer" is 40 words) and the pieces join back to the text.
 */
export function tokensOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** Reads a request body, or returns the message of the 400 it deserves. */
export function parseChatRequest(text: string, defaultModel: string): LocalChatRequest | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the request body is not valid JSON';
  }
  if (!isRecord(body)) return 'the request body must be a JSON object';
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return '"messages" must be a non-empty array';
  const parsed = messages.map(parseMessage);
  if (parsed.some((m) => m === undefined))
    return 'each message needs a "role" (system, user or assistant) and a string "content"';
  const maxTokens = body.max_tokens;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && (maxTokens as number) > 0))
    return '"max_tokens" must be a positive integer';
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  return {
    model: typeof body.model === 'string' ? body.model : defaultModel,
    messages: parsed as ChatMessage[],
    stream: body.stream === true,
    includeUsage: options.include_usage === true,
    ...(typeof maxTokens === 'number' ? { maxTokens } : {}),
    body,
  };
}

function parseMessage(value: unknown): ChatMessage | undefined {
  if (!isRecord(value)) return undefined;
  const { role, content, name } = value;
  if (role !== 'system' && role !== 'user' && role !== 'assistant') return undefined;
  if (typeof content !== 'string') return undefined;
  return typeof name === 'string' ? { role, content, name } : { role, content };
}

/** The answer to `request` whose text is `text`: cut at `max_tokens` (finish `length`), usage counted. */
export function answerFor(request: LocalChatRequest, text: string, id: string, withUsage: boolean): LocalAnswer {
  const tokens = tokensOf(text);
  const cut = request.maxTokens !== undefined && tokens.length > request.maxTokens;
  const kept = cut ? tokens.slice(0, request.maxTokens) : tokens;
  const promptTokens = request.messages.reduce((sum, m) => sum + tokensOf(m.content).length, 0);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: kept.length,
    total_tokens: promptTokens + kept.length,
  };
  return {
    id,
    model: request.model,
    content: cut ? kept.join('') : text,
    finishReason: cut ? 'length' : 'stop',
    ...(withUsage ? { usage } : {}),
  };
}

/** The non-streamed reply: `chat.completion` with one choice. */
export function completionBody(answer: LocalAnswer): JsonRecord {
  return {
    id: answer.id,
    object: 'chat.completion',
    created: 0,
    model: answer.model,
    choices: [
      { index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: answer.finishReason },
    ],
    ...(answer.usage ? { usage: answer.usage } : {}),
  };
}

/**
 * The streamed reply as the JSON of each `chat.completion.chunk`: the role, the content in pieces of
 * `chunkChars` characters, the finish reason, then the usage chunk when asked for (and known).
 */
export function completionChunks(answer: LocalAnswer, includeUsage: boolean, chunkChars: number): string[] {
  const chunk = (delta: JsonRecord, finish: string | null): string =>
    JSON.stringify({
      id: answer.id,
      object: 'chat.completion.chunk',
      created: 0,
      model: answer.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const pieces: string[] = [];
  for (let i = 0; i < answer.content.length; i += chunkChars) pieces.push(answer.content.slice(i, i + chunkChars));
  const chunks = [
    chunk({ role: 'assistant', content: '' }, null),
    ...pieces.map((content) => chunk({ content }, null)),
    chunk({}, answer.finishReason),
  ];
  if (includeUsage && answer.usage) {
    chunks.push(
      JSON.stringify({
        id: answer.id,
        object: 'chat.completion.chunk',
        created: 0,
        model: answer.model,
        choices: [],
        usage: answer.usage,
      }),
    );
  }
  return chunks;
}

/** An error body in OpenAI's shape. */
export function errorBody(message: string, type: string, code: string | null = null): JsonRecord {
  return { error: { message, type, param: null, code } };
}
