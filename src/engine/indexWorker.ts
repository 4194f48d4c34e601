import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { runIndexJob } from './indexJob';
import { runSideSearchWorker, type SideSearchWorkerData } from './indexWorkerSearch';
import { runCreditWriteWorker } from './credit/creditWriteWorker';
import type { CreditWriteWorkerData } from './credit/creditWriteProtocol';
import { runCreditJobWorker } from './credit/creditJobWorker';
import type { CreditJobWorkerData } from './credit/creditJobProtocol';
import type { IndexWorkerData, IndexWorkerMessage } from './indexWorkerProtocol';
import { runAuditRunsWorker, type AuditRunsWorkerData } from './audit/auditRunsInWorker';
import { runTraceCreditWorker, type TraceCreditWorkerData } from './traceCredit/traceCreditInWorker';

// Entry point of the index worker thread (dist/indexWorker.js). better-sqlite3 is synchronous, so
// indexing runs here to keep the extension host and the CLI's progress display responsive. The
// same script, started by an index worker in the side-search role, builds a cold pass's full-text
// index in a third thread (indexWorkerSearch.ts); in the credit-writes role, it stores a credit
// pass's rows beside the pass (credit/creditWrites.ts); in the credit-job role, it runs a whole
// credit job off the caller's thread (credit/creditJobInWorker.ts); in the audit-runs role, an
// audit's reading (audit/auditRunsInWorker.ts); in the trace-credit role, a credit table's pass
// over the trace files (traceCredit/traceCreditInWorker.ts).
const data = workerData as
  | IndexWorkerData
  | SideSearchWorkerData
  | CreditWriteWorkerData
  | CreditJobWorkerData
  | AuditRunsWorkerData
  | TraceCreditWorkerData;
if (!('role' in data)) runIndex(data);
else if (data.role === 'credit-writes') runCreditWriteWorker(data);
else if (data.role === 'credit-job') runCreditJobWorker(data);
else if (data.role === 'audit-runs') runAuditRunsWorker(data);
else if (data.role === 'trace-credit') runTraceCreditWorker(data);
else runSideSearchWorker(data);

function runIndex(data: IndexWorkerData): void {
  const cancelFlag = new Int32Array(data.cancel);
  const post = (message: IndexWorkerMessage): void => parentPort?.postMessage(message);
  // The parse worker is bundled next to this file; parsing there keeps both cores busy.
  const parseWorkerScript = join(__dirname, 'parseWorker.js');
  const sideSearchScript = join(__dirname, 'indexWorker.js');
  const scripts = existsSync(parseWorkerScript) ? { parseWorkerScript, sideSearchScript } : {};
  runIndexJob(
    { ...scripts, ...data.options },
    {
      isCancelled: () => Atomics.load(cancelFlag, 0) === 1,
      onProgress: (progress) => post({ kind: 'progress', progress }),
    },
  ).then(
    (result) => post({ kind: 'done', result, maxRssBytes: process.resourceUsage().maxRSS * 1024 }),
    (error: unknown) => post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
