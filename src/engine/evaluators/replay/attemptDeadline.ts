/** Why an attempt's signal fired: its own timers, or the request's outer signal ('cancelled'). */
export type AbortCause = 'timeout' | 'idle' | 'cancelled';

/**
 * The one AbortSignal of an HTTP attempt: it fires at the overall timeout (connect and whole body),
 * when the body is idle for the armed idle time, or when the outer signal fires; `cause` says which
 * came first. Always `dispose()` it (clears the timers, detaches the listeners).
 */
export class AttemptDeadline {
  private readonly controller = new AbortController();
  private readonly overall: NodeJS.Timeout;
  private idle: NodeJS.Timeout | undefined;
  private idleMs: number | undefined;
  private detachOuter: (() => void) | undefined;
  private firstCause: AbortCause | undefined;

  constructor(
    readonly timeoutMs: number,
    outer: AbortSignal | undefined,
  ) {
    this.overall = setTimeout(() => this.abort('timeout'), timeoutMs);
    if (outer?.aborted) this.abort('cancelled');
    else if (outer) {
      const onAbort = (): void => this.abort('cancelled');
      outer.addEventListener('abort', onAbort, { once: true });
      this.detachOuter = () => outer.removeEventListener('abort', onAbort);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** What fired the signal, or undefined while it has not fired. */
  get cause(): AbortCause | undefined {
    return this.firstCause;
  }

  /** Starts (or restarts with a new length) the idle timer; {@link touch} resets it on each chunk. */
  armIdle(idleMs: number): void {
    this.idleMs = idleMs;
    this.touch();
  }

  /** Data arrived: the idle timer starts again. */
  touch(): void {
    if (this.idleMs === undefined || this.firstCause) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.abort('idle'), this.idleMs);
  }

  dispose(): void {
    clearTimeout(this.overall);
    clearTimeout(this.idle);
    this.detachOuter?.();
    this.detachOuter = undefined;
  }

  private abort(cause: AbortCause): void {
    if (this.firstCause) return;
    this.firstCause = cause;
    this.dispose();
    this.controller.abort();
  }
}
