/** What went wrong with one request to a model server; the replay evaluator can branch on it. */
export type ChatErrorKind =
  | 'http' // the server answered with an error status
  | 'network' // no connection, or it was reset
  | 'timeout' // no complete answer within the per-request timeout
  | 'idle' // a stream sent nothing for too long
  | 'stream-stopped' // a stream ended before [DONE]
  | 'malformed' // the reply is not the Chat Completions shape
  | 'down' // the circuit breaker is open: failing fast
  | 'cancelled'; // the caller aborted, or the client was closed

/**
 * The one error a chat client rejects with. The message names the endpoint and what went wrong and
 * never contains the API key (see {@link redactSecrets}). Cancellation has `name === 'AbortError'`.
 */
export class ChatClientError extends Error {
  constructor(
    message: string,
    readonly kind: ChatErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = kind === 'cancelled' ? 'AbortError' : 'ChatClientError';
  }
}

/**
 * One failed attempt, before the retry loop decides what to do with it. `detail` is a short phrase
 * without the endpoint ("HTTP 503: \"overloaded\"", "connection refused (ECONNREFUSED)").
 */
export interface AttemptFailure {
  readonly kind: Exclude<ChatErrorKind, 'down'>;
  readonly detail: string;
  /** Worth another attempt (429, 5xx, a reset connection, a stream cut short). */
  readonly retryable: boolean;
  /** Says the server is unreachable or failing (connection errors, timeouts, 5xx): feeds the breaker. */
  readonly serverDown: boolean;
  readonly status?: number;
  /** The wait the server asked for with `Retry-After`, already capped. */
  readonly retryAfterMs?: number;
}

/** Marks a thrown value as an attempt failure (so the retry loop can tell it from a programming error). */
export class AttemptError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.detail);
    this.name = 'AttemptError';
  }
}

/** Throws an {@link AttemptError} for `failure`. */
export function fail(failure: AttemptFailure): never {
  throw new AttemptError(failure);
}

/** A failure the server's reply caused that another attempt would not fix. */
export function malformed(detail: string): AttemptFailure {
  return { kind: 'malformed', detail, retryable: false, serverDown: false };
}

/** The first `max` characters of `text` as a JSON string literal (quotes, newlines escaped), "…" when cut. */
export function quote(text: string, max = 200): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${JSON.stringify(trimmed.slice(0, max))}…` : JSON.stringify(trimmed);
}

/** Replaces every occurrence of each secret (of at least 4 characters) in `text` with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) if (secret.length >= 4) redacted = redacted.split(secret).join('***');
  return redacted;
}
