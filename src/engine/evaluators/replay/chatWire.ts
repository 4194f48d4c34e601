import { estimatedTokensOf, type ChatCompletion, type ChatRequest, type TokenUsage } from '../../../core/chat';
import { isRecord, type JsonRecord } from '../../../ingest/importers/formats/common/json';
import { fail, malformed, quote } from './chatErrors';

/** The JSON body of `POST /chat/completions` for `request`; unset sampling parameters are left to the server. */
export function chatRequestBody(request: ChatRequest, stream: boolean): JsonRecord {
  const { temperature, topP, maxTokens, seed } = request.sampling;
  return {
    model: request.model,
    messages: request.messages.map((m) =>
      m.name === undefined ? { role: m.role, content: m.content } : { role: m.role, content: m.content, name: m.name },
    ),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { top_p: topP } : {}),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(seed !== undefined ? { seed } : {}),
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
}

/** Parses a non-streamed reply: `choices[0].message.content`, `finish_reason` and `usage`. */
export function parseJsonCompletion(text: string, request: ChatRequest): ChatCompletion {
  const reply = parseJsonObject(text, 'the reply');
  if (isErrorObject(reply)) fail(malformed(`the reply is an error: ${describeErrorBody(text)}`));
  const choice = firstChoice(reply);
  const message = choice?.message;
  if (!isRecord(message)) fail(malformed(`the reply has no choices[0].message: ${quote(text)}`));
  const content = message.content ?? '';
  if (typeof content !== 'string') fail(malformed(`choices[0].message.content is not a string: ${quote(text)}`));
  return completion(content, finishReason(choice), reply.usage, request);
}

/** A completion with the server's usage, or an estimate when it reported none. */
export function completion(
  content: string,
  finish: string | undefined,
  usage: unknown,
  request: ChatRequest,
): ChatCompletion {
  return {
    content,
    ...(finish !== undefined ? { finishReason: finish } : {}),
    usage: reportedUsage(usage) ?? estimatedUsage(request, content),
  };
}

/** `usage.prompt_tokens` / `completion_tokens` when both are non-negative numbers. */
export function reportedUsage(usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const { prompt_tokens: prompt, completion_tokens: completionTokens } = usage;
  if (!isCount(prompt) || !isCount(completionTokens)) return undefined;
  return { promptTokens: prompt, completionTokens, estimated: false };
}

/** Token counts estimated at four characters a token, for servers that report no usage. */
export function estimatedUsage(request: ChatRequest, content: string): TokenUsage {
  const promptChars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
  return {
    promptTokens: estimatedTokensOf(promptChars),
    completionTokens: estimatedTokensOf(content.length),
    estimated: true,
  };
}

/**
 * A short description of an error body in any of the shapes servers use: OpenAI's
 * `{"error": {"message", "type", "code"}}`, vLLM/FastAPI's `{"detail": ...}`, Ollama's
 * `{"error": "..."}`, or plain text (the first 200 characters, quoted).
 */
export function describeErrorBody(text: string): string {
  if (text.trim() === '') return '(empty body)';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return quote(text);
  }
  if (!isRecord(body)) return quote(text);
  const { error, detail, message } = body;
  if (typeof error === 'string') return quote(error);
  if (isRecord(error) && typeof error.message === 'string') return `${quote(error.message)}${errorTags(error)}`;
  if (typeof detail === 'string') return quote(detail);
  if (detail !== undefined) return quote(JSON.stringify(detail));
  if (typeof message === 'string') return quote(message);
  return quote(text);
}

function errorTags(error: JsonRecord): string {
  const tags = (['type', 'code'] as const)
    .filter((k) => typeof error[k] === 'string' || typeof error[k] === 'number')
    .map((k) => `${k} ${String(error[k])}`);
  return tags.length > 0 ? ` (${tags.join(', ')})` : '';
}

/** Parses `text` as a JSON object, or fails with a malformed-reply error quoting it. */
export function parseJsonObject(text: string, what: string): JsonRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(malformed(`${what} is not valid JSON: ${quote(text)}`));
  }
  if (!isRecord(value)) fail(malformed(`${what} is not a JSON object: ${quote(text)}`));
  return value;
}

/** An error where a reply or a chunk was expected: `{"error": …}`, or vLLM's `{"object": "error", "message": …}`. */
export function isErrorObject(value: JsonRecord): boolean {
  return value.error !== undefined || value.object === 'error';
}

/** `choices[0]` of a reply or a stream chunk, when it is an object. */
export function firstChoice(reply: JsonRecord): JsonRecord | undefined {
  const choices = reply.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  return isRecord(first) ? first : undefined;
}

/** `finish_reason` of a choice when it is a string. */
export function finishReason(choice: JsonRecord | undefined): string | undefined {
  const reason = choice?.finish_reason;
  return typeof reason === 'string' ? reason : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
