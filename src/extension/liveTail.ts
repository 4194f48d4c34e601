/** Anything that can be disposed (a VS Code watcher, a test double). */
interface Disposable {
  dispose(): unknown;
}

/** What a live tail needs from its host; injected so the scheduling is testable without VS Code. */
export interface LiveTailDeps {
  /** Starts watching the folder's trace files; `onChange` fires for any create, change or delete. */
  readonly watch: (folder: string, onChange: () => void) => Disposable;
  /** One incremental index pass over the folder (appended lines only, in the worker). */
  readonly runPass: (folder: string) => Promise<unknown>;
  /** Called after every pass, successful or not (views, status bar). */
  readonly onPass: (folder: string, error?: unknown) => void;
  /** Quiet time after the last change before a pass starts. */
  readonly debounceMs?: number;
}

/**
 * Re-indexes a run folder while training appends to it: file changes are debounced (250 ms by
 * default) into one incremental pass, passes never overlap, and a change during a pass schedules
 * exactly one more. Appended lines therefore show up about one pass after they are written.
 */
export class LiveTail {
  private readonly watchers = new Map<
    string,
    { watcher: Disposable; timer?: NodeJS.Timeout; running: boolean; dirty: boolean }
  >();
  private disposed = false;

  constructor(private readonly deps: LiveTailDeps) {}

  /** Follows `folder` (idempotent). */
  follow(folder: string): void {
    if (this.disposed || this.watchers.has(folder)) return;
    const watcher = this.deps.watch(folder, () => this.changed(folder));
    this.watchers.set(folder, { watcher, running: false, dirty: false });
  }

  unfollow(folder: string): void {
    const state = this.watchers.get(folder);
    if (!state) return;
    clearTimeout(state.timer);
    state.watcher.dispose();
    this.watchers.delete(folder);
  }

  get following(): readonly string[] {
    return [...this.watchers.keys()];
  }

  dispose(): void {
    this.disposed = true;
    for (const folder of [...this.watchers.keys()]) this.unfollow(folder);
  }

  private changed(folder: string): void {
    const state = this.watchers.get(folder);
    if (!state) return;
    if (state.running) {
      state.dirty = true;
      return;
    }
    clearTimeout(state.timer);
    state.timer = setTimeout(() => void this.pass(folder), this.deps.debounceMs ?? 250);
  }

  private async pass(folder: string): Promise<void> {
    const state = this.watchers.get(folder);
    if (!state || this.disposed) return;
    state.running = true;
    state.dirty = false;
    try {
      await this.deps.runPass(folder);
      this.deps.onPass(folder);
    } catch (error) {
      this.deps.onPass(folder, error);
    } finally {
      state.running = false;
    }
    if (changedDuringPass(state) && this.watchers.get(folder) === state) this.changed(folder);
  }
}

/** Read through a function: the flag is set by change events while the pass is awaited. */
function changedDuringPass(state: { readonly dirty: boolean }): boolean {
  return state.dirty;
}
