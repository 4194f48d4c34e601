import { startWorker } from '../ingest/workerThread';
import type { IndexProgress } from '../core/indexProgress';
import type { IndexJobOptions, IndexJobResult } from './indexJob';
import type { IndexWorkerData, IndexWorkerMessage } from './indexWorkerProtocol';

export interface IndexJobHandle {
  /** Resolves with the pass's result (also after a cancellation); rejects on a fatal error. */
  readonly result: Promise<IndexJobResult & { readonly maxRssBytes: number }>;
  /** Asks the worker to stop at the next line; what was read so far stays committed. */
  cancel(): void;
}

/**
 * The index worker writes every batch; a batch's episodes live while they are bound, and with the
 * 8 MB young generation of other workers (ingest/workerThread.ts) each scavenge copied them again.
 * 32 MB: the cold index of the 1 GB benchmark run 0.91× the wall time, 0.90× the CPU, the same
 * peak memory (BENCHMARKS.md, issue 15, fifteenth part).
 */
const writerHeapLimits = { maxYoungGenerationSizeMb: 32 };

/**
 * Runs {@link runIndexJob} in a worker thread. `workerScript` is the built `dist/indexWorker.js`
 * (the host, the CLI and the tests all pass the bundled file, so they run identical code).
 */
export function runIndexInWorker(
  options: IndexJobOptions,
  workerScript: string,
  onProgress?: (progress: IndexProgress) => void,
): IndexJobHandle {
  const cancel = new SharedArrayBuffer(4);
  const data: IndexWorkerData = { options, cancel };
  const worker = startWorker(workerScript, { workerData: data, resourceLimits: writerHeapLimits });
  const result = new Promise<IndexJobResult & { maxRssBytes: number }>((resolve, reject) => {
    let settled = false;
    worker.on('message', (message: IndexWorkerMessage) => {
      if (message.kind === 'progress') onProgress?.(message.progress);
      else if (message.kind === 'done') {
        settled = true;
        resolve({ ...message.result, maxRssBytes: message.maxRssBytes });
      } else {
        settled = true;
        reject(new Error(message.message));
      }
    });
    worker.on('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`index worker exited with code ${code} before finishing`));
    });
  });
  return { result, cancel: () => Atomics.store(new Int32Array(cancel), 0, 1) };
}
