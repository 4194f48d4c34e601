import type { WebviewApi } from 'vscode-webview';

/**
 * The webview's view of its host. This module is the only caller of `acquireVsCodeApi()`: inside
 * VS Code it wraps the real API; anywhere else (a plain browser page, a test harness) it falls back
 * to an in-memory host that keeps state in memory and records what was posted.
 */
export interface Host<State> {
  postMessage(message: unknown): void;
  /** Persisted UI / navigation state only; data is always asked from the host again (docs/architecture.md §5). */
  getState(): State | undefined;
  setState(state: State): void;
  /** True for the in-memory fallback (no VS Code around). */
  readonly isFallback: boolean;
}

/** The in-memory host used outside VS Code; `posted` lists every message sent, oldest first. */
export interface FallbackHost<State> extends Host<State> {
  readonly posted: readonly unknown[];
}

type AcquireVsCodeApi = () => WebviewApi<unknown>;

let acquired: Host<unknown> | undefined;

/**
 * The host of this webview. `acquireVsCodeApi` may be called only once per webview, so the result
 * is cached; every caller gets the same object.
 */
export function acquireHost<State>(): Host<State> {
  acquired ??= createHost();
  return acquired as Host<State>;
}

function createHost(): Host<unknown> {
  const acquire = (globalThis as { acquireVsCodeApi?: AcquireVsCodeApi }).acquireVsCodeApi;
  if (typeof acquire !== 'function') return createFallbackHost();
  const api = acquire();
  return {
    postMessage: (message) => {
      api.postMessage(message);
    },
    getState: () => api.getState(),
    setState: (state) => {
      api.setState(state);
    },
    isFallback: false,
  };
}

/** A host without VS Code: state in memory, posted messages recorded (and logged for a developer). */
export function createFallbackHost<State>(initialState?: State): FallbackHost<State> {
  let state = initialState;
  const posted: unknown[] = [];
  return {
    postMessage: (message) => {
      posted.push(message);
      console.debug('[credit-lens webview] posted', message);
    },
    getState: () => state,
    setState: (next) => {
      state = next;
    },
    isFallback: true,
    posted,
  };
}
