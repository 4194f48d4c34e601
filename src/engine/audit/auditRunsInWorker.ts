import { parentPort } from 'node:worker_threads';
import type { RunAudit } from '../../core/auditReport';
import { closedOnExitRequest, endWorker, outOfMemoryError, startWorker } from '../../ingest/workerThread';
import { creditJobHeapLimits } from '../credit/creditJobInWorker';
import { auditRuns, type AuditRunsRequest } from './auditRuns';

// The audit's reading in a worker thread (dist/indexWorker.js in its `audit-runs` role): the host
// passes the request, the worker answers with the reports or the error.

/** What the host passes to the audit's worker. */
export interface AuditRunsWorkerData {
  readonly role: 'audit-runs';
  readonly request: AuditRunsRequest;
}

/** From the worker to the host: the reports (stored by then), or why there are none. */
export type AuditRunsWorkerMessage =
  | { readonly kind: 'done'; readonly reports: readonly RunAudit[] }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * {@link auditRuns} in a worker thread running `script`. Why: the reading streams every episode of
 * the run (1.3 million at 10 GB), and its garbage is short-lived objects per episode, which a main
 * thread's young generation lets grow with the machine: on Node 24 the 10 GB audit reached 431 MiB
 * on the CLI's thread and 267 MiB with an 8 MB semi-space (BENCHMARKS.md, issue 15, twenty-fourth
 * part). A worker's generations are bounded as the credit job's are ({@link creditJobHeapLimits}),
 * which an extension cannot do for VS Code's own thread; that thread stays free too.
 */
export async function auditRunsInWorker(request: AuditRunsRequest, script: string): Promise<RunAudit[]> {
  const data: AuditRunsWorkerData = { role: 'audit-runs', request };
  const worker = startWorker(script, { workerData: data, resourceLimits: creditJobHeapLimits });
  try {
    return await new Promise<RunAudit[]>((resolve, reject) => {
      worker.on('message', (message: AuditRunsWorkerMessage) => {
        if (message.kind === 'done') resolve([...message.reports]);
        else reject(new Error(message.message));
      });
      worker.on('error', (error: Error & { code?: string }) =>
        reject(outOfMemoryError(error, 'the audit', creditJobHeapLimits, 'runs it had not finished keep their flags')),
      );
      worker.on('exit', (code) => reject(new Error(`the audit's worker exited (code ${code}) before it ended`)));
    });
  } finally {
    await endWorker(worker);
  }
}

/** Worker side: reads the audit and posts its reports, then waits for the host's exit request. */
export function runAuditRunsWorker(data: AuditRunsWorkerData): void {
  const post = (message: AuditRunsWorkerMessage): void => parentPort?.postMessage(message);
  parentPort?.on('message', (message: unknown) => closedOnExitRequest(message, [parentPort]));
  auditRuns(data.request).then(
    (reports) => post({ kind: 'done', reports }),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      post({ kind: 'failed', message: `the audit's reading of ${data.request.dbPath} failed: ${message}` });
    },
  );
}
