import { RosterDetails } from './compactEpisode';
import type { FormatMapper } from './importers/types';
import { batchOfJson, parseLines, type ParsedBatch, type ParseRequest } from './parseLines';
import {
  flagCancel,
  flagInFlight,
  type ParseWorkerBatch,
  type ParseWorkerData,
  type ParseWorkerMessage,
  type TextRoute,
} from './parseWorkerProtocol';
import { endWorker, startWorker } from './workerThread';

/** Receives the batches of request `index`, in order. */
export type BatchSink = (index: number, batch: ParsedBatch) => void;

/** Turns files into parsed batches, in this thread or another. */
export interface BatchProducer {
  /** Parses the files in order, calling `onBatch` for every batch; resolves when all are read. */
  parseAll(requests: readonly ParseRequest[], onBatch: BatchSink): Promise<void>;
  close(): Promise<void>;
}

/** Parses in the calling thread (tests, tiny folders); `mappers`: the formats to import (default: the registered ones). */
export function inThreadProducer(isCancelled: () => boolean, mappers?: readonly FormatMapper[]): BatchProducer {
  return {
    parseAll: (requests, onBatch) => {
      const details = new RosterDetails();
      requests.forEach((request, index) => {
        if (!isCancelled()) parseLines(request, isCancelled, (batch) => onBatch(index, batch), { details, mappers });
      });
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

/** Batches a parse worker may run ahead of the writer (and of a side full-text index); bounds memory while keeping all busy. */
export const maxInFlight = 4;
/** Batches of texts a parse worker may send ahead of the side full-text index: fewer, since each holds all its text. */
export const maxTextsInFlight = 2;

/**
 * Parses in a worker thread (`dist/parseWorker.js`), so that JSON parsing and SQLite writing run on
 * two cores at once. All files of a pass are sent at once, so the worker never waits for the writer
 * between files; it blocks (Atomics.wait) only when `maxInFlight` batches are unwritten (or, with
 * `textRoute`, `maxTextsInFlight` batches' texts are not yet indexed by the side full-text index).
 */
export function workerProducer(script: string, isCancelled: () => boolean, textRoute?: TextRoute): BatchProducer {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const data: ParseWorkerData = {
    flags: flags.buffer,
    maxInFlight,
    maxTextsInFlight,
    ...(textRoute ? { textRoute } : {}),
  };
  const worker = startWorker(script, { workerData: data, transferList: textRoute ? [textRoute.port] : [] });
  const relayCancel = setInterval(() => {
    if (isCancelled()) Atomics.store(flags, flagCancel, 1);
  }, 20);
  let pending: { onBatch: BatchSink; resolve: () => void; reject: (e: Error) => void } | undefined;
  const fail = (error: Error): void => {
    pending?.reject(error);
    pending = undefined;
  };
  worker.on('message', (message: ParseWorkerMessage) => {
    if (!pending || message.kind === 'end') return;
    if (message.kind === 'failed') return fail(new Error(message.message));
    if (message.kind === 'done') {
      const done = pending;
      pending = undefined;
      return done.resolve();
    }
    try {
      pending.onBatch(message.index, batchOfMessage(message));
    } catch (error) {
      Atomics.store(flags, flagCancel, 1); // a failed write ends the pass; the worker must not block
      fail(error as Error);
    } finally {
      // Relayed here too: while the worker keeps the queue full, this thread's timers may not run.
      if (isCancelled()) Atomics.store(flags, flagCancel, 1);
      Atomics.sub(flags, flagInFlight, 1);
      Atomics.notify(flags, flagInFlight);
    }
  });
  worker.on('error', fail);
  const onExit = (code: number): void => fail(new Error(`parse worker exited with code ${code}`));
  worker.on('exit', onExit);
  return {
    parseAll: (requests, onBatch) =>
      new Promise((resolve, reject) => {
        pending = { onBatch, resolve, reject };
        worker.postMessage(requests);
      }),
    close: async () => {
      clearInterval(relayCancel);
      worker.off('exit', onExit);
      await endWorker(worker);
    },
  };
}

/**
 * The batch a parse worker's message carries: its JSON and episodes read back, with what crossed
 * beside them (its texts, or the number they were sent to the side index under).
 */
export function batchOfMessage(message: ParseWorkerBatch): ParsedBatch {
  const batch = batchOfJson(message.json, message.episodes);
  if (message.texts) return { ...batch, texts: message.texts };
  return message.textSeq !== undefined ? { ...batch, textSeq: message.textSeq } : batch;
}

/** Creates the real producer on first use, so a pass with nothing to read starts no worker. */
export function lazyProducer(create: () => BatchProducer): BatchProducer {
  let producer: BatchProducer | undefined;
  return {
    parseAll: (requests, onBatch) =>
      requests.length === 0 ? Promise.resolve() : (producer ??= create()).parseAll(requests, onBatch),
    close: async () => producer?.close(),
  };
}
