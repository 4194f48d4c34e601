interface Waiter {
  readonly grant: () => void;
  readonly refuse: (error: Error) => void;
}

/**
 * A counting semaphore that serves waiters first come, first served. A waiter whose signal fires
 * leaves the queue at once; {@link refuseAll} empties it (when the client closes).
 */
export class Semaphore {
  private free: number;
  private readonly queue: Waiter[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`concurrency must be a positive integer, got ${capacity}`);
    this.free = capacity;
  }

  /** Slots in use. */
  get inUse(): number {
    return this.capacity - this.free;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Resolves with a `release` function once a slot is free (call it exactly once; later calls do
   * nothing), or rejects with `onAbort()` if `signal` fires first.
   */
  acquire(signal: AbortSignal | undefined, onAbort: () => Error): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(onAbort());
    if (this.free > 0 && this.queue.length === 0) {
      this.free--;
      return Promise.resolve(this.releaser());
    }
    return new Promise<() => void>((resolve, reject) => {
      const abort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(onAbort());
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', abort);
          resolve(this.releaser());
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', abort);
          reject(error);
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Rejects every waiting caller with `error`; slots in use stay in use until released. */
  refuseAll(error: Error): void {
    for (const waiter of this.queue.splice(0)) waiter.refuse(error);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      const next = this.queue.shift();
      if (next) next.grant();
      else this.free++;
    };
  }
}
