import { parentPort, workerData } from 'node:worker_threads';
import { parseLines, type ParseRequest } from './parseLines';
import { flagCancel, flagInFlight, type ParseWorkerData, type ParseWorkerMessage } from './parseWorkerProtocol';

// Entry point of the parse worker (dist/parseWorker.js): reads and decodes trace files so the index
// worker only writes. Each request is one file; batches stream back as they are ready.
const data = workerData as ParseWorkerData;
const flags = new Int32Array(data.flags);
const isCancelled = (): boolean => Atomics.load(flags, flagCancel) === 1;
const post = (message: ParseWorkerMessage): void => parentPort?.postMessage(message);

/** Blocks this thread until the writer has room for another batch (or the pass is cancelled). */
function waitForRoom(): void {
  for (;;) {
    const inFlight = Atomics.load(flags, flagInFlight);
    if (inFlight < data.maxInFlight || isCancelled()) return;
    Atomics.wait(flags, flagInFlight, inFlight, 100);
  }
}

parentPort?.on('message', (request: ParseRequest) => {
  try {
    const end = parseLines(request, isCancelled, (batch) => {
      waitForRoom();
      Atomics.add(flags, flagInFlight, 1);
      // One JSON string per batch: cheaper to produce than a structured clone of many small objects,
      // and the string itself crosses threads as a plain copy.
      post({ kind: 'batch', json: JSON.stringify(batch) });
    });
    post({ kind: 'end', end });
  } catch (error) {
    post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
