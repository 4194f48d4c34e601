import type { MessagePort } from 'node:worker_threads';
import type { PackedTexts } from '../core/packedTexts';

/** Index of the cancel flag (1 = stop) in the shared flags. */
export const flagCancel = 0;
/** Index of the count of batches posted but not yet written. */
export const flagInFlight = 1;

/** Index, in {@link TextRoute.flags}, of the count of texts posted to the side index but not yet indexed. */
export const flagTextsInFlight = 0;

/**
 * Where the parse worker sends each batch's message texts in a cold pass: a side full-text index
 * in another thread (engine/indexWorkerSearch.ts), so the writer never receives them.
 */
export interface TextRoute {
  /** Receives {@link SideTexts}, in batch order, and sends each batch's text buffer back once indexed. */
  readonly port: MessagePort;
  /** One Int32 slot, {@link flagTextsInFlight}: the side index decrements it (and notifies) per batch indexed. */
  readonly flags: SharedArrayBuffer;
}

/** One batch's message texts on their way to the side index; the writer reports the batch's slots under `seq`. */
export interface SideTexts {
  readonly seq: number;
  readonly texts: PackedTexts;
}

/** What the parse worker is started with. */
export interface ParseWorkerData {
  /** Two Int32 slots: {@link flagCancel} and {@link flagInFlight}. */
  readonly flags: SharedArrayBuffer;
  readonly maxInFlight: number;
  /** The limit of {@link flagTextsInFlight}. */
  readonly maxTextsInFlight: number;
  readonly textRoute?: TextRoute;
  /** What a worker script other than dist/parseWorker.js needs besides the requests (engine/traceCredit: the method). */
  readonly job?: unknown;
}

/** Blocks the calling (worker) thread while `counter[slot]` is at `limit`, or until `isCancelled`. */
export function waitBelowLimit(counter: Int32Array, slot: number, limit: number, isCancelled: () => boolean): void {
  for (;;) {
    const inFlight = Atomics.load(counter, slot);
    if (inFlight < limit || isCancelled()) return;
    Atomics.wait(counter, slot, inFlight, 100);
  }
}

/** A batch from the parse worker (see {@link ParseWorkerMessage}). */
export interface ParseWorkerBatch {
  readonly kind: 'batch';
  readonly index: number;
  readonly json: string;
  /** Each episode's JSON as UTF-8, transferred; `json` then has no episodes (ParsedBatch.episodeJson). */
  readonly episodes?: PackedTexts;
  readonly texts?: PackedTexts;
  readonly textSeq?: number;
}

/**
 * Messages from the parse worker: batches tagged with the index of their request, `end` after each
 * request, then `done`
 * (or a failure). `json` is a ParsedBatch (parseLines.ts) without its `texts`, serialised with
 * JSON.stringify: cheaper to produce than a structured clone of many small objects, and it crosses
 * threads as one copy. The parse worker leaves its episodes out of `json`: each is serialised as
 * soon as it is decoded, and their JSON crosses as UTF-8 bytes in `episodes`, transferred
 * (ParseState.episodeJson says why). `texts` (the message content for the full-text index) crosses beside it as
 * UTF-8 bytes, transferred (core/packedTexts.ts): putting them in the JSON would escape them and
 * make the writer parse them again, and as strings every thread that held them would copy them in
 * each young-generation collection.
 */
export type ParseWorkerMessage =
  | ParseWorkerBatch
  /** Request `index` has posted its last batch (a pool delivers the requests of several workers in order). */
  | { readonly kind: 'end'; readonly index: number }
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly message: string };
