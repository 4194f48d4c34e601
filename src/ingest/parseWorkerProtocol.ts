import type { ReadPosition } from './jsonlReader';

/** Index of the cancel flag (1 = stop) in the shared flags. */
export const flagCancel = 0;
/** Index of the count of batches posted but not yet written. */
export const flagInFlight = 1;

/** What the parse worker is started with. */
export interface ParseWorkerData {
  /** Two Int32 slots: {@link flagCancel} and {@link flagInFlight}. */
  readonly flags: SharedArrayBuffer;
  readonly maxInFlight: number;
}

/** Messages from the parse worker: batches of the current file, then its end (or a failure). */
export type ParseWorkerMessage =
  /** `json` is a ParsedBatch (parseLines.ts) serialised with JSON.stringify. */
  | { readonly kind: 'batch'; readonly json: string }
  | { readonly kind: 'end'; readonly end: ReadPosition }
  | { readonly kind: 'failed'; readonly message: string };
