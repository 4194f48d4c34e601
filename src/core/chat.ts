/**
 * The one vocabulary for talking to a model server that speaks the OpenAI Chat Completions API
 * (vLLM, SGLang, TGI, Ollama, llama.cpp's server, hosted APIs): what the replay evaluator asks
 * (src/credit/replay plans the requests) and what the client (src/engine/evaluators/replay) answers.
 * Pure types (and the token estimate): no I/O here.
 */

/** One message of a chat request, as the wire carries it. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  /** The speaker, for servers that keep several participants apart (`name` on the wire). */
  readonly name?: string;
}

/** Sampling parameters, from the trace or the evaluator's config; absent ones are the server's defaults. */
export interface SamplingParams {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  readonly seed?: number;
}

/** One completion to generate. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly sampling: SamplingParams;
}

/**
 * Tokens of `chars` characters of text without a tokeniser: one per 4 characters, rounded up. The
 * one estimate behind both a replay's cost before it runs and a server reply without `usage`.
 */
export function estimatedTokensOf(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Tokens a call spent, as the server's `usage` reports them (estimated when it reports none). */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** True when the server sent no usage and the counts are estimated from the text. */
  readonly estimated: boolean;
}

/** The server's answer to one request. */
export interface ChatCompletion {
  readonly content: string;
  /** `stop`, `length`, … as the server said; undefined when it said nothing. */
  readonly finishReason?: string;
  readonly usage: TokenUsage;
}

/** What a client has done so far: for progress lines and the totals stored with the credit. */
export interface ChatClientStats {
  readonly calls: number;
  readonly failedCalls: number;
  readonly retries: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly elapsedMs: number;
}

/**
 * A client of one OpenAI-compatible endpoint. `complete` resolves with the completion or rejects
 * with an Error whose message names the endpoint and what went wrong (timeout, HTTP status and the
 * server's error body, malformed reply, circuit open, cancelled); it never hangs past its timeout.
 */
export interface ChatClient {
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion>;
  stats(): ChatClientStats;
  close(): Promise<void>;
}
