import { parentPort, workerData } from 'node:worker_threads';
import { RosterDetails } from './compactEpisode';
import { parseLines, type ParsedBatch, type ParseRequest } from './parseLines';
import { flagCancel, flagInFlight, type ParseWorkerData, type ParseWorkerMessage } from './parseWorkerProtocol';

// Entry point of the parse worker (dist/parseWorker.js): reads and decodes trace files so the index
// worker only writes. Each message is the list of files of one pass; batches stream back in order.
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

parentPort?.on('message', (requests: readonly ParseRequest[]) => {
  try {
    const details = new RosterDetails();
    requests.forEach((request, index) => {
      if (isCancelled()) return;
      const emit = (batch: ParsedBatch): void => {
        waitForRoom();
        Atomics.add(flags, flagInFlight, 1);
        const { texts, ...rows } = batch;
        post({ kind: 'batch', index, json: JSON.stringify(rows), ...(texts ? { texts } : {}) });
      };
      parseLines(request, isCancelled, emit, details);
    });
    post({ kind: 'done' });
  } catch (error) {
    post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
