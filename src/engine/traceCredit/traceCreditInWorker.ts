import type { IndexProgress } from '../../core/indexProgress';
import { answerWorkerJob, runWorkerJob } from '../../ingest/workerThread';
import { traceCreditTable, type TraceCreditOptions, type TraceCreditResult } from './traceCreditJob';

// The credit table's pass in a worker thread (dist/indexWorker.js in its `trace-credit` role): the
// host passes the options, the worker starts the parse workers, tallies their digests and answers
// with the table; progress comes back as messages, a cancel is a shared flag.

/**
 * The heap of the table's worker: the old generation as the credit job's
 * (`creditJobHeapLimits`: V8's growing factor about 1.4 at 512 MB), the young generation 8 MB. On
 * the 10 GB run on Node 24, 32 MB gave 343 MiB peak RSS against 16 MB's 325, and with the lighter
 * duplicate check 8 MB gave 298 against 16 MB's 305–306, two rounds each (BENCHMARKS.md, issue 15,
 * twenty-fifth and twenty-sixth parts).
 */
export const tableJobHeapLimits = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 8 } as const;

/** What the host passes to the table's worker: the options that cross a thread. */
export interface TraceCreditWorkerData {
  readonly role: 'trace-credit';
  readonly options: Omit<TraceCreditOptions, 'isCancelled' | 'onProgress' | 'jobWorkerScript'>;
  /** One Int32, set to 1 by the host to cancel; the pass polls it as its `isCancelled`. */
  readonly cancel: SharedArrayBuffer;
  /** Whether the host wants the pass's progress. */
  readonly progress: boolean;
}

/** From the worker to the host: progress, then the table or why there is none. */
export type TraceCreditWorkerMessage =
  | { readonly kind: 'progress'; readonly progress: IndexProgress }
  | { readonly kind: 'done'; readonly result: TraceCreditResult }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * {@link traceCreditTable} in a worker thread running `script`. Why: the thread that tallies parses
 * every batch's digests (1.3 million episodes at 10 GB), and a main thread's young and old
 * generations grow with the machine, which an extension cannot bound for VS Code's own thread: on
 * Node 24 the 10 GB table reached 475–500 MiB on the CLI's thread (BENCHMARKS.md, issue 15,
 * twenty-fourth and twenty-fifth parts). In a worker its generations are bounded
 * ({@link tableJobHeapLimits}), and the caller's thread stays free.
 */
export async function traceCreditTableInWorker(
  options: TraceCreditOptions,
  script: string,
): Promise<TraceCreditResult> {
  const { isCancelled, onProgress, jobWorkerScript: _here, ...crossing } = options;
  const cancel = new SharedArrayBuffer(4);
  const data: TraceCreditWorkerData = { role: 'trace-credit', options: crossing, cancel, progress: !!onProgress };
  // The host's cancel is a function: polled here and handed on as the shared flag.
  const pollCancel = (): void => {
    if (isCancelled?.()) Atomics.store(new Int32Array(cancel), 0, 1);
  };
  pollCancel();
  const poll = setInterval(pollCancel, 100);
  try {
    return await runWorkerJob<TraceCreditWorkerMessage, TraceCreditResult>({
      script,
      workerData: data,
      limits: tableJobHeapLimits,
      job: 'the credit table',
      kept: 'nothing was written',
      answer: (message) => {
        if (message.kind === 'progress') {
          onProgress?.(message.progress);
          return undefined;
        }
        return message.kind === 'done' ? { result: message.result } : new Error(message.message);
      },
    });
  } finally {
    clearInterval(poll);
  }
}

/** Worker side: runs the pass and posts its progress and table, then waits for the host's exit request. */
export function runTraceCreditWorker(data: TraceCreditWorkerData): void {
  const cancelFlag = new Int32Array(data.cancel);
  answerWorkerJob<TraceCreditWorkerMessage>(
    async (post) => ({
      kind: 'done',
      result: await traceCreditTable({
        ...data.options,
        isCancelled: () => Atomics.load(cancelFlag, 0) === 1,
        ...(data.progress ? { onProgress: (progress: IndexProgress) => post({ kind: 'progress', progress }) } : {}),
      }),
    }),
    (error) => ({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
