import type { RunAudit } from '../../core/auditReport';
import { answerWorkerJob, runWorkerJob } from '../../ingest/workerThread';
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
export function auditRunsInWorker(request: AuditRunsRequest, script: string): Promise<RunAudit[]> {
  const data: AuditRunsWorkerData = { role: 'audit-runs', request };
  return runWorkerJob<AuditRunsWorkerMessage, RunAudit[]>({
    script,
    workerData: data,
    limits: creditJobHeapLimits,
    job: 'the audit',
    kept: 'runs it had not finished keep their flags',
    answer: (message) => (message.kind === 'done' ? { result: [...message.reports] } : new Error(message.message)),
  });
}

/** Worker side: reads the audit and posts its reports, then waits for the host's exit request. */
export function runAuditRunsWorker(data: AuditRunsWorkerData): void {
  answerWorkerJob<AuditRunsWorkerMessage>(
    async () => ({ kind: 'done', reports: await auditRuns(data.request) }),
    (error) => {
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'failed', message: `the audit's reading of ${data.request.dbPath} failed: ${message}` };
    },
  );
}
