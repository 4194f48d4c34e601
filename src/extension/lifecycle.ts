/** Anything with a `dispose()`: VS Code registrations, event listeners, panels, our own owners. */
export interface DisposableLike {
  dispose(): void;
}

/**
 * Disposes every item, last registered first, even when some throw; rethrows the first error after
 * all were tried (an `AggregateError` when several threw).
 */
export function disposeAll(disposables: DisposableLike[]): void {
  const errors: unknown[] = [];
  while (disposables.length > 0) {
    try {
      disposables.pop()?.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed to dispose');
}

/** Wraps a function as a disposable that runs it once. */
export function toDisposable(fn: () => void): DisposableLike {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * Base class of host objects that own registrations. `_register()` hands a disposable to this
 * owner; once the owner is disposed, anything registered later is disposed at once instead of
 * leaking.
 */
export abstract class Disposable implements DisposableLike {
  private readonly disposables: DisposableLike[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.disposables);
  }

  protected _register<T extends DisposableLike>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.disposables.push(disposable);
    return disposable;
  }
}
