import { parentPort } from 'node:worker_threads';
import { closedOnExitRequest } from '../../ingest/workerThread';
import { NoIndexError } from '../indexJob';
import { runCreditJob, type CreditJobHooks } from './creditJob';
import type { CreditJobWorkerData, CreditJobWorkerMessage } from './creditJobProtocol';

/**
 * The credit job's worker (dist/indexWorker.js in the `credit-job` role; creditJobInWorker.ts
 * starts it): runs {@link runCreditJob} on its own connection, in-process from here on (its rows
 * still go to a write worker of its own), and posts the hooks the host asked for. The thread waits
 * for the host's exit request after its last message, so it ends the one way every worker ends.
 */
export function runCreditJobWorker(data: CreditJobWorkerData): void {
  const post = (message: CreditJobWorkerMessage): void => parentPort?.postMessage(message);
  parentPort?.on('message', (message: unknown) => closedOnExitRequest(message, [parentPort]));
  const cancelFlag = new Int32Array(data.cancel);
  const hooks: CreditJobHooks = {
    isCancelled: () => Atomics.load(cancelFlag, 0) === 1,
    onProgress: (done, total, run) => post({ kind: 'progress', done, total, run }),
    onReplayStats: (stats) => post({ kind: 'replay-stats', stats }),
    onEstimate: (run, estimate) => post({ kind: 'estimate', run, estimate }),
    onWarning: (message) => post({ kind: 'warning', message }),
    ...(data.episodes ? { onEpisode: (report) => post({ kind: 'episode', report }) } : {}),
  };
  runCreditJob({ ...data.options, jobWorkerScript: false }, hooks).then(
    (result) => post({ kind: 'done', result }),
    (error: unknown) =>
      post({
        kind: 'failed',
        message: error instanceof Error ? error.message : String(error),
        noIndex: error instanceof NoIndexError,
      }),
  );
}
