import { AttemptError, type AttemptFailure } from './chatErrors';
import { describeErrorBody } from './chatWire';
import type { AbortCause } from './attemptDeadline';
import { parseRetryAfter, retryableStatuses } from './retryPolicy';

/** A failure from an error status, with the server's error body described and `Retry-After` read. */
export function httpFailure(
  status: number,
  body: string,
  retryAfter: string | null,
  maxRetryAfterMs: number,
): AttemptFailure {
  const wait = status === 429 || status === 503 ? parseRetryAfter(retryAfter, maxRetryAfterMs) : undefined;
  return {
    kind: 'http',
    detail: `HTTP ${status}: ${describeErrorBody(body)}`,
    status,
    retryable: retryableStatuses.has(status),
    serverDown: status >= 500,
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}

/** The failure an attempt's own signal means: the overall timeout, an idle stream, or the caller's abort. */
export function deadlineFailure(cause: AbortCause, timeoutMs: number, idleMs: number, chunks: number): AttemptFailure {
  if (cause === 'cancelled') return { kind: 'cancelled', detail: 'cancelled', retryable: false, serverDown: false };
  if (cause === 'idle')
    return {
      kind: 'idle',
      detail: `no data for ${idleMs} ms while streaming (after ${chunks} chunks)`,
      retryable: false,
      serverDown: true,
    };
  return { kind: 'timeout', detail: `no complete answer within ${timeoutMs} ms`, retryable: false, serverDown: true };
}

/** The failure of a stream that ended, or was cut, before `data: [DONE]`. */
export function streamStopped(chunks: number, error?: unknown): AttemptFailure {
  const why = error === undefined ? 'without [DONE]' : `(${networkDescription(error)})`;
  return {
    kind: 'stream-stopped',
    detail: `the stream stopped after ${chunks} chunks ${why}`,
    retryable: true,
    serverDown: true,
  };
}

interface NetworkCode {
  readonly text: string;
  readonly retryable: boolean;
}

// Node's and undici's codes for a connection that could not be made or did not last.
const networkCodes: Readonly<Record<string, NetworkCode>> = {
  ECONNREFUSED: { text: 'connection refused', retryable: true },
  ECONNRESET: { text: 'connection reset', retryable: true },
  EPIPE: { text: 'connection broken', retryable: true },
  UND_ERR_SOCKET: { text: 'the server closed the connection', retryable: true },
  ETIMEDOUT: { text: 'connection timed out', retryable: true },
  UND_ERR_CONNECT_TIMEOUT: { text: 'connection timed out', retryable: true },
  UND_ERR_HEADERS_TIMEOUT: { text: 'the server sent no headers in time', retryable: true },
  UND_ERR_BODY_TIMEOUT: { text: 'the server stopped sending the body', retryable: true },
  EHOSTUNREACH: { text: 'host unreachable', retryable: true },
  ENETUNREACH: { text: 'network unreachable', retryable: true },
  EAI_AGAIN: { text: 'host name lookup failed for now', retryable: true },
  ENOTFOUND: { text: 'host not found', retryable: false },
};

/**
 * An attempt's thrown value as a failure: an {@link AttemptError} as it is; a connection error by its
 * code (`fetch failed` carries it in `cause`); anything else as a non-retryable failure quoting it.
 */
export function thrownFailure(error: unknown): AttemptFailure {
  if (error instanceof AttemptError) return error.failure;
  const code = errorCode(error);
  const known = code === undefined ? undefined : networkCodes[code];
  if (known)
    return { kind: 'network', detail: networkDescription(error), retryable: known.retryable, serverDown: true };
  return {
    kind: 'network',
    detail: `the request failed: ${networkDescription(error)}`,
    retryable: false,
    serverDown: false,
  };
}

/** "connection refused (ECONNREFUSED)", or the innermost error message with its code. */
function networkDescription(error: unknown): string {
  const code = errorCode(error);
  const known = code === undefined ? undefined : networkCodes[code];
  if (known && code) return `${known.text} (${code})`;
  const message = innermostMessage(error);
  return code ? `${message} (${code})` : message;
}

/** The first `code` string along the `cause` chain (or in an AggregateError's first error). */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  const nested = errorCode(cause, depth + 1);
  if (nested) return nested;
  return Array.isArray(errors) ? errorCode(errors[0], depth + 1) : undefined;
}

function innermostMessage(error: unknown): string {
  let current: unknown = error;
  let message = String(error);
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    message = current.message || message;
    current = current.cause;
  }
  return message;
}
