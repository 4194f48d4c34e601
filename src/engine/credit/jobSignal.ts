/** A job's cancellation as one signal, whichever way the host asks for it. */
export interface JobSignal {
  readonly signal: AbortSignal;
  /** True once the host cancelled (by its signal or its `isCancelled`). */
  cancelled(): boolean;
  /** Stops watching the host. */
  dispose(): void;
}

/** How often `isCancelled` is polled while a job runs: a cancel aborts calls in flight within this. */
const pollMs = 100;

/**
 * One AbortSignal for a job that fires when the host's `signal` does or when its `isCancelled()`
 * turns true (polled every 100 ms), so evaluator calls in flight — a replay's requests to a model
 * server — are aborted promptly whichever way the host cancels (the CLI's Ctrl-C, VS Code's token).
 */
export function jobSignal(hooks: { readonly signal?: AbortSignal; readonly isCancelled?: () => boolean }): JobSignal {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  if (hooks.signal?.aborted) abort();
  hooks.signal?.addEventListener('abort', abort, { once: true });
  const poll = hooks.isCancelled
    ? setInterval(() => {
        if (hooks.isCancelled?.()) abort();
      }, pollMs)
    : undefined;
  poll?.unref();
  return {
    signal: controller.signal,
    cancelled: () => controller.signal.aborted || (hooks.isCancelled?.() ?? false),
    dispose: () => {
      if (poll) clearInterval(poll);
      hooks.signal?.removeEventListener('abort', abort);
    },
  };
}
