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

/**
 * Messages from the parse worker: batches tagged with the index of their request, then `done`
 * (or a failure). `json` is a ParsedBatch (parseLines.ts) without its `texts`, serialised with
 * JSON.stringify: cheaper to produce than a structured clone of many small objects, and it crosses
 * threads as one copy. `texts` (the message content for the full-text index) is posted as an array
 * of strings beside it: cloning strings is a copy, where putting them in the JSON would escape
 * them and make the writer parse them again.
 */
export type ParseWorkerMessage =
  | { readonly kind: 'batch'; readonly index: number; readonly json: string; readonly texts?: string[] }
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly message: string };
