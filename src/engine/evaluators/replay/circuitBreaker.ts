import { ChatClientError } from './chatErrors';

/** When the breaker opens and for how long. */
export interface BreakerOptions {
  /** Consecutive failures (connection errors, timeouts, 5xx) that open the breaker (default 5). */
  readonly threshold: number;
  /** How long an open breaker fails requests at once before it lets one probe through (default 10 s). */
  readonly coolDownMs: number;
}

/** The defaults of {@link BreakerOptions}. */
export const defaultBreaker: BreakerOptions = { threshold: 5, coolDownMs: 10_000 };

/** How a request admitted by the breaker ended, as far as the server's health goes. */
export type Outcome = 'up' | 'down' | 'neutral';

/** Whether an admitted request is the half-open probe. */
export type Admission = 'regular' | 'probe';

/**
 * A circuit breaker for one model server. Closed: requests pass, failures are counted, a reply of
 * any kind (even 4xx) resets the count. Open (after `threshold` failures in a row): requests fail
 * at once with "the model server at … is down" for `coolDownMs`. Half-open (cool-down over): one
 * request probes the server while the others wait for its outcome; success closes the breaker,
 * failure opens it for another cool-down.
 */
export class CircuitBreaker {
  private state: 'closed' | 'open' | 'half-open' = 'closed';
  private failures = 0;
  private lastFailure = '';
  private openUntil = 0;
  private probe: { readonly settled: Promise<void>; readonly settle: () => void } | undefined;

  constructor(
    private readonly endpoint: string,
    private readonly options: BreakerOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** True while requests fail fast (the cool-down is not over). */
  get isOpen(): boolean {
    return this.state === 'open';
  }

  /**
   * Lets a request through, or rejects with the "is down" error while open. In half-open, the first
   * caller becomes the probe; the others wait (abortably) for its outcome and try again.
   */
  async admit(signal: AbortSignal | undefined, onAbort: () => Error): Promise<Admission> {
    for (;;) {
      if (this.state === 'closed') return 'regular';
      if (this.state === 'open') {
        if (this.now() < this.openUntil) throw this.downError();
        this.state = 'half-open';
        this.probe = deferred();
        return 'probe';
      }
      if (this.probe) await untilSettled(this.probe.settled, signal, onAbort);
    }
  }

  /** Records how an admitted request ended; `detail` describes a 'down' one for the error message. */
  record(admission: Admission, outcome: Outcome, detail = ''): void {
    if (outcome === 'up') {
      this.failures = 0;
      this.state = 'closed';
    } else if (outcome === 'down') {
      this.failures++;
      this.lastFailure = detail;
      const probeFailed = admission === 'probe' && this.state === 'half-open';
      if (probeFailed || (this.state === 'closed' && this.failures >= this.options.threshold))
        this.open(this.options.coolDownMs);
    } else if (admission === 'probe' && this.state === 'half-open') {
      this.open(0); // the probe was cancelled: the next request probes
    }
    if (admission === 'probe' || this.state !== 'half-open') this.endProbe();
  }

  /** The error of a request refused while the breaker is open. */
  downError(): ChatClientError {
    const wait = Math.max(0, this.openUntil - this.now());
    return new ChatClientError(
      `the model server at ${this.endpoint} is down: ${this.lastFailure}; ${this.failures} requests failed in a row (next try in ${(wait / 1000).toFixed(1)} s)`,
      'down',
    );
  }

  private open(coolDownMs: number): void {
    this.state = 'open';
    this.openUntil = this.now() + coolDownMs;
  }

  private endProbe(): void {
    const probe = this.probe;
    this.probe = undefined;
    probe?.settle();
  }
}

function deferred(): { settled: Promise<void>; settle: () => void } {
  let settle = (): void => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { settled, settle };
}

function untilSettled(settled: Promise<void>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  if (signal?.aborted) return Promise.reject(onAbort());
  return new Promise<void>((resolve, reject) => {
    const abort = (): void => reject(onAbort());
    signal?.addEventListener('abort', abort, { once: true });
    void settled.then(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    });
  });
}
