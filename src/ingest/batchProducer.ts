import { Worker } from 'node:worker_threads';
import type { ReadPosition } from './jsonlReader';
import { parseLines, type ParsedBatch, type ParseRequest } from './parseLines';
import { flagCancel, flagInFlight, type ParseWorkerData, type ParseWorkerMessage } from './parseWorkerProtocol';

/** Turns a file into parsed batches, in this thread or another. */
export interface BatchProducer {
  /** Parses one file; `onBatch` is called for every batch, in order; resolves with the end position. */
  parse(request: ParseRequest, onBatch: (batch: ParsedBatch) => void): Promise<ReadPosition>;
  close(): Promise<void>;
}

/** Parses in the calling thread (tests, tiny folders). */
export function inThreadProducer(isCancelled: () => boolean): BatchProducer {
  return {
    parse: (request, onBatch) => Promise.resolve(parseLines(request, isCancelled, onBatch)),
    close: () => Promise.resolve(),
  };
}

/** Batches a parse worker may run ahead of the writer; bounds memory while keeping both busy. */
const maxInFlight = 4;

/**
 * Parses in a worker thread (`dist/parseWorker.js`), so that JSON parsing and SQLite writing run on
 * two cores at once. The worker blocks (Atomics.wait) when `maxInFlight` batches are unwritten.
 */
export function workerProducer(script: string, isCancelled: () => boolean): BatchProducer {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const data: ParseWorkerData = { flags: flags.buffer as SharedArrayBuffer, maxInFlight };
  const worker = new Worker(script, { workerData: data });
  const relayCancel = setInterval(() => {
    if (isCancelled()) Atomics.store(flags, flagCancel, 1);
  }, 20);
  let pending: { onBatch: (b: ParsedBatch) => void; resolve: (p: ReadPosition) => void; reject: (e: Error) => void } | undefined;
  const fail = (error: Error): void => {
    pending?.reject(error);
    pending = undefined;
  };
  worker.on('message', (message: ParseWorkerMessage) => {
    if (!pending) return;
    if (message.kind === 'failed') return fail(new Error(message.message));
    if (message.kind === 'end') {
      const done = pending;
      pending = undefined;
      return done.resolve(message.end);
    }
    try {
      pending.onBatch(JSON.parse(message.json) as ParsedBatch);
    } catch (error) {
      fail(error as Error);
    } finally {
      Atomics.sub(flags, flagInFlight, 1);
      Atomics.notify(flags, flagInFlight);
    }
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`parse worker exited with code ${code}`)));
  return {
    parse: (request, onBatch) =>
      new Promise((resolve, reject) => {
        pending = { onBatch, resolve, reject };
        worker.postMessage(request);
      }),
    close: async () => {
      clearInterval(relayCancel);
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}

/** Creates the real producer on the first `parse`, so a pass with nothing to read starts no worker. */
export function lazyProducer(create: () => BatchProducer): BatchProducer {
  let producer: BatchProducer | undefined;
  return {
    parse: (request, onBatch) => (producer ??= create()).parse(request, onBatch),
    close: async () => producer?.close(),
  };
}
