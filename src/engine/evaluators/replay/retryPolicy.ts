/** Exponential backoff between attempts. */
export interface BackoffOptions {
  /** The wait before the first retry, before jitter (default 500 ms). */
  readonly baseMs: number;
  /** No wait exceeds this, `Retry-After` included (default 30 s). */
  readonly maxMs: number;
}

/** The defaults of {@link BackoffOptions}. */
export const defaultBackoff: BackoffOptions = { baseMs: 500, maxMs: 30_000 };

/** HTTP statuses worth another attempt: rate limited, or a server-side failure that may pass. */
export const retryableStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * The wait before retry number `retry` (0 for the first): `baseMs · 2^retry`, capped at `maxMs`,
 * with "equal jitter" (a uniform draw in its upper half) so that clients that failed together do not
 * retry together.
 */
export function backoffDelay(retry: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** retry);
  return ceiling / 2 + (ceiling / 2) * random();
}

/**
 * The wait a `Retry-After` header asks for, in ms, capped at `capMs`: delay-seconds (`"2"`,
 * `"1.5"`) or an HTTP date. Undefined when absent or unreadable; 0 for a date in the past.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  capMs: number,
  now: number = Date.now(),
): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
  else {
    // An HTTP date names its day and month; V8 would also read "-1" or "2026" as dates.
    const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(capMs, Math.max(0, Math.round(ms)));
}

/** Waits `ms`, or rejects with `onAbort()` as soon as `signal` fires (a cancelled retry wait ends at once). */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
