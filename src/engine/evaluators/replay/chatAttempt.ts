import type { ChatCompletion, ChatRequest } from '../../../core/chat';
import { AttemptError, fail, malformed } from './chatErrors';
import { chatRequestBody, parseJsonCompletion } from './chatWire';
import { AttemptDeadline } from './attemptDeadline';
import { deadlineFailure, httpFailure, thrownFailure } from './attemptFailures';
import { readStreamedCompletion, type StreamProgress } from './streamedCompletion';

/** What every attempt of one client shares. */
export interface AttemptSettings {
  /** The full `…/chat/completions` URL. */
  readonly url: string;
  /** Request headers, the `Authorization` one included: never logged, never put in a message. */
  readonly headers: Readonly<Record<string, string>>;
  readonly stream: boolean;
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxRetryAfterMs: number;
  readonly fetch: typeof fetch;
}

/**
 * One HTTP attempt at a completion, under its own deadline (the overall timeout, the stream idle
 * timeout, the caller's `signal`). Resolves with the completion, or rejects with an
 * {@link AttemptError} whose failure says whether to retry; it never outlives its timeout.
 */
export async function attemptCompletion(
  settings: AttemptSettings,
  request: ChatRequest,
  signal: AbortSignal | undefined,
): Promise<ChatCompletion> {
  const deadline = new AttemptDeadline(settings.timeoutMs, signal);
  const progress: StreamProgress = { chunks: 0 };
  try {
    const response = await settings.fetch(settings.url, {
      method: 'POST',
      headers: settings.headers,
      body: JSON.stringify(chatRequestBody(request, settings.stream)),
      signal: deadline.signal,
    });
    if (!response.ok)
      fail(
        httpFailure(
          response.status,
          await response.text(),
          response.headers.get('retry-after'),
          settings.maxRetryAfterMs,
        ),
      );
    if (isEventStream(response)) {
      if (!response.body) fail(malformed('the event stream has no body'));
      return await readStreamedCompletion(response.body, request, deadline, settings.idleTimeoutMs, progress);
    }
    return parseJsonCompletion(await response.text(), request);
  } catch (error) {
    const cause = deadline.cause;
    if (cause)
      throw new AttemptError(deadlineFailure(cause, settings.timeoutMs, settings.idleTimeoutMs, progress.chunks));
    throw new AttemptError(thrownFailure(error));
  } finally {
    deadline.dispose();
  }
}

/** Decided by the reply, not the request: some servers stream when not asked to, or answer JSON when asked. */
function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
}
