import type { IndexProgress } from '../core/indexProgress';
import type { IndexJobOptions, IndexJobResult } from './indexJob';

/** What the parent passes to the index worker. */
export interface IndexWorkerData {
  readonly options: IndexJobOptions;
  /** One Int32: set to 1 by the parent to cancel; read by the worker between lines. */
  readonly cancel: SharedArrayBuffer;
}

/** Messages from the index worker to its parent. */
export type IndexWorkerMessage =
  | { readonly kind: 'progress'; readonly progress: IndexProgress }
  | { readonly kind: 'done'; readonly result: IndexJobResult; readonly maxRssBytes: number }
  | { readonly kind: 'failed'; readonly message: string };
