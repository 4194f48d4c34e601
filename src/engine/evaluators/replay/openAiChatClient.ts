import type { ChatClient, ChatClientStats, ChatCompletion, ChatRequest } from '../../../core/chat';
import { ChatClientError, redactSecrets, type AttemptFailure } from './chatErrors';
import { chatEndpoint, chatHeaders } from './chatEndpoint';
import { attemptCompletion, type AttemptSettings } from './chatAttempt';
import { thrownFailure } from './attemptFailures';
import { CircuitBreaker, defaultBreaker, type Admission, type BreakerOptions, type Outcome } from './circuitBreaker';
import { backoffDelay, defaultBackoff, sleep, type BackoffOptions } from './retryPolicy';
import { ClientStats } from './clientStats';
import { Semaphore } from './semaphore';
import { RequestScopes, type RequestScope } from './requestScopes';

/** How to reach one OpenAI-compatible server and how patient to be with it. */
export interface OpenAiChatClientOptions {
  /** The API root, e.g. `http://127.0.0.1:8000/v1` (vLLM, SGLang, TGI, Ollama, llama.cpp, hosted). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never logged and never part of an error message or the stats. */
  readonly apiKey?: string;
  /** Ask for server-sent events (default false: one JSON reply). Either reply shape is read whatever was asked. */
  readonly stream?: boolean;
  /** Requests in flight at most; the others wait in a first-come, first-served queue (default 8). */
  readonly concurrency?: number;
  /** Per attempt: connect, headers and the whole body or stream (default 120 000 ms). */
  readonly timeoutMs?: number;
  /** A stream that sends nothing for this long is cut (default 60 000 ms, at most `timeoutMs`). */
  readonly idleTimeoutMs?: number;
  /** Further attempts after a retryable failure: 429, 500, 502, 503, 504, a reset or refused connection (default 4). */
  readonly retries?: number;
  /** Exponential backoff with jitter; `maxMs` also caps `Retry-After`. */
  readonly backoff?: Partial<BackoffOptions>;
  readonly breaker?: Partial<BreakerOptions>;
  /** More request headers (e.g. `api-key` for Azure); their values are kept out of messages like the key. */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** The fetch to use (default `globalThis.fetch`); tests inject one. */
  readonly fetch?: typeof fetch;
}

/**
 * A {@link ChatClient} of an OpenAI-compatible Chat Completions endpoint: bounded concurrency, a
 * timeout per attempt, retries with backoff (honouring `Retry-After`), a circuit breaker that fails
 * fast while the server is down, and cancellation through the `signal` of each call.
 */
export function openAiChatClient(options: OpenAiChatClientOptions): ChatClient {
  return new OpenAiChatClient(options);
}

class OpenAiChatClient implements ChatClient {
  private readonly settings: AttemptSettings;
  private readonly endpoint: string;
  private readonly secrets: readonly string[];
  private readonly retries: number;
  private readonly backoff: BackoffOptions;
  private readonly slots: Semaphore;
  private readonly breaker: CircuitBreaker;
  private readonly totals = new ClientStats();
  private readonly scopes = new RequestScopes();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(options: OpenAiChatClientOptions) {
    const { url, display } = chatEndpoint(options.baseUrl);
    const timeoutMs = positive(options.timeoutMs ?? 120_000, 'timeoutMs');
    const stream = options.stream ?? false;
    this.endpoint = display;
    this.backoff = { ...defaultBackoff, ...options.backoff };
    this.settings = {
      url,
      headers: chatHeaders(options.apiKey, stream, options.extraHeaders),
      stream,
      timeoutMs,
      idleTimeoutMs: Math.min(timeoutMs, positive(options.idleTimeoutMs ?? 60_000, 'idleTimeoutMs')),
      maxRetryAfterMs: this.backoff.maxMs,
      fetch: options.fetch ?? globalThis.fetch,
    };
    this.secrets = [options.apiKey ?? '', ...Object.values(options.extraHeaders ?? {})];
    this.retries = Math.floor(Math.max(0, options.retries ?? 4));
    this.slots = new Semaphore(options.concurrency ?? 8);
    this.breaker = new CircuitBreaker(display, { ...defaultBreaker, ...options.breaker });
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion> {
    const scope = this.scopes.open(signal);
    this.totals.started();
    const work = this.completeInScope(request, scope);
    this.inFlight.add(work);
    try {
      const completion = await work;
      this.totals.ended(completion.usage);
      return completion;
    } catch (error) {
      const failure = this.redacted(error);
      this.totals.ended(failure.kind === 'cancelled' ? 'cancelled' : 'failed');
      throw failure;
    } finally {
      this.inFlight.delete(work);
      this.scopes.dispose(scope, signal);
    }
  }

  stats(): ChatClientStats {
    return this.totals.snapshot();
  }

  /** Cancels every request under way or queued (they reject with "the chat client was closed") and waits for them. */
  async close(): Promise<void> {
    this.scopes.closeAll();
    await Promise.allSettled([...this.inFlight]);
  }

  private async completeInScope(request: ChatRequest, scope: RequestScope): Promise<ChatCompletion> {
    const release = await this.slots.acquire(scope.signal, scope.error);
    try {
      return await this.withRetries(request, scope);
    } finally {
      release();
    }
  }

  private async withRetries(request: ChatRequest, scope: RequestScope): Promise<ChatCompletion> {
    for (let retry = 0; ; retry++) {
      const admission = await this.breaker.admit(scope.signal, scope.error);
      const result = await this.attempt(request, scope, admission);
      if (!isFailure(result)) return result;
      if (result.kind === 'cancelled') throw scope.error();
      // No retry against a server known to be down; the message names the failure that opened the breaker.
      if (this.breaker.isOpen) throw this.breaker.downError();
      if (!result.retryable || retry >= this.retries) throw this.finalError(result, retry);
      this.totals.retried();
      await sleep(result.retryAfterMs ?? backoffDelay(retry, this.backoff), scope.signal, scope.error);
    }
  }

  /** One attempt, its outcome told to the breaker; a failure is returned, not thrown. */
  private async attempt(
    request: ChatRequest,
    scope: RequestScope,
    admission: Admission,
  ): Promise<ChatCompletion | AttemptFailure> {
    try {
      const completion = await attemptCompletion(this.settings, request, scope.signal);
      this.breaker.record(admission, 'up');
      return completion;
    } catch (error) {
      const failure = thrownFailure(error);
      this.breaker.record(admission, healthOf(failure), failure.detail);
      return failure;
    }
  }

  private finalError(failure: AttemptFailure, retries: number): ChatClientError {
    const after = retries === 0 ? '' : ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
    return new ChatClientError(
      `the request to the model server at ${this.endpoint} failed: ${failure.detail}${after}`,
      failure.kind,
      failure.status,
    );
  }

  /** The error to reject with, the key and header values masked (a proxy may echo them in its body). */
  private redacted(error: unknown): ChatClientError {
    if (error instanceof ChatClientError)
      return new ChatClientError(redactSecrets(error.message, this.secrets), error.kind, error.status);
    const message = error instanceof Error ? error.message : String(error);
    return new ChatClientError(
      redactSecrets(`the request to the model server at ${this.endpoint} failed: ${message}`, this.secrets),
      'network',
    );
  }
}

/** What a failed attempt says about the server: unreachable or failing, alive (it answered), or nothing. */
function healthOf(failure: AttemptFailure): Outcome {
  if (failure.serverDown) return 'down';
  return failure.kind === 'cancelled' || failure.kind === 'network' ? 'neutral' : 'up';
}

function isFailure(result: ChatCompletion | AttemptFailure): result is AttemptFailure {
  return 'retryable' in result;
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number of milliseconds, got ${value}`);
  return value;
}
