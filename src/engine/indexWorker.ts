import { parentPort, workerData } from 'node:worker_threads';
import { runIndexJob } from './indexJob';
import type { IndexWorkerData, IndexWorkerMessage } from './indexWorkerProtocol';

// Entry point of the index worker thread (dist/indexWorker.js). better-sqlite3 is synchronous, so
// indexing runs here to keep the extension host and the CLI's progress display responsive.
const data = workerData as IndexWorkerData;
const cancelFlag = new Int32Array(data.cancel);
const post = (message: IndexWorkerMessage): void => parentPort?.postMessage(message);

try {
  const result = runIndexJob(data.options, {
    isCancelled: () => Atomics.load(cancelFlag, 0) === 1,
    onProgress: (progress) => post({ kind: 'progress', progress }),
  });
  post({ kind: 'done', result, maxRssBytes: process.resourceUsage().maxRSS * 1024 });
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
