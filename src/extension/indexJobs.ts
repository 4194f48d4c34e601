import type { IndexJobHandle } from '../engine/runIndexInWorker';
import { Disposable, toDisposable, type DisposableLike } from './lifecycle';

/**
 * The index passes in flight, at most one per folder (two writers on one index would only wait on
 * each other's locks). Disposing it, when the extension deactivates, cancels every pass.
 */
export class IndexJobs extends Disposable {
  private readonly running = new Map<string, IndexJobHandle>();

  constructor() {
    super();
    this._register(toDisposable(() => this.cancelAll()));
  }

  isRunning(folder: string): boolean {
    return this.running.has(folder);
  }

  /** Records `handle` as the pass over `folder` until the returned disposable is disposed. */
  track(folder: string, handle: IndexJobHandle): DisposableLike {
    if (this.isDisposed) handle.cancel();
    this.running.set(folder, handle);
    return toDisposable(() => {
      if (this.running.get(folder) === handle) this.running.delete(folder);
    });
  }

  private cancelAll(): void {
    for (const handle of this.running.values()) handle.cancel();
    this.running.clear();
  }
}
