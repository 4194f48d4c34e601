import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { runIndexJob } from './indexJob';
import type { IndexWorkerData, IndexWorkerMessage } from './indexWorkerProtocol';

// Entry point of the index worker thread (dist/indexWorker.js). better-sqlite3 is synchronous, so
// indexing runs here to keep the extension host and the CLI's progress display responsive.
const data = workerData as IndexWorkerData;
const cancelFlag = new Int32Array(data.cancel);
const post = (message: IndexWorkerMessage): void => parentPort?.postMessage(message);

// The parse worker is bundled next to this file; parsing there keeps both cores busy.
const parseWorkerScript = join(__dirname, 'parseWorker.js');
const options = { ...(existsSync(parseWorkerScript) ? { parseWorkerScript } : {}), ...data.options };

runIndexJob(options, {
  isCancelled: () => Atomics.load(cancelFlag, 0) === 1,
  onProgress: (progress) => post({ kind: 'progress', progress }),
}).then(
  (result) => post({ kind: 'done', result, maxRssBytes: process.resourceUsage().maxRSS * 1024 }),
  (error: unknown) => post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
