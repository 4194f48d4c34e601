import { answerWorkerJob } from '../../ingest/workerThread';
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
  const cancelFlag = new Int32Array(data.cancel);
  answerWorkerJob<CreditJobWorkerMessage>(
    async (post) => {
      const hooks: CreditJobHooks = {
        isCancelled: () => Atomics.load(cancelFlag, 0) === 1,
        onProgress: (done, total, run) => post({ kind: 'progress', done, total, run }),
        onReplayStats: (stats) => post({ kind: 'replay-stats', stats }),
        onEstimate: (run, estimate) => post({ kind: 'estimate', run, estimate }),
        onWarning: (message) => post({ kind: 'warning', message }),
        ...(data.episodes ? { onEpisode: (report) => post({ kind: 'episode', report }) } : {}),
      };
      return { kind: 'done', result: await runCreditJob({ ...data.options, jobWorkerScript: false }, hooks) };
    },
    (error) => ({
      kind: 'failed',
      message: error instanceof Error ? error.message : String(error),
      noIndex: error instanceof NoIndexError,
    }),
  );
}
