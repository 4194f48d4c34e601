import { runWorkerJob } from '../../ingest/workerThread';
import { CreditRepository } from '../../store/creditRepository';
import { IndexStore } from '../../store/indexStore';
import { findIndexLocation } from '../indexLocation';
import { NoIndexError } from '../indexJob';
import type { CreditJobHooks, CreditJobOptions, CreditJobResult } from './creditJob';
import type { CreditJobWorkerData, CreditJobWorkerMessage } from './creditJobProtocol';
import { bundledIndexWorkerScript } from './creditWrites';
import { jobSignal } from './jobSignal';
import { reportStoredRun } from './storedRunReport';

/**
 * The heap of the job's worker. Why bounded: V8 grows an isolate's old generation by a factor
 * that rises with its limit (up to 4× at 2 GB and more), and under a large machine's default limit
 * it let a pass's promoted garbage (about 30 MB of it live) fill 110–180 MB before collecting; at
 * 512 MB the factor is about 1.4. The young generation is 32 MB (V8's default here is 48): at 16 the
 * 10 GB pass took 1.13× as long (BENCHMARKS.md, issue 15, fourteenth part). What a pass holds does not
 * grow with the run (its failures are tallied: failureTally.ts).
 */
export const creditJobHeapLimits = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32 } as const;

/**
 * The worker a job runs in, or undefined to run it in-process: a job of single episodes (a panel's
 * recompute: the thread's start would cost more than it saves), a dry run, and a job with the
 * replay's host services (functions, which cannot cross a thread) stay on the caller's thread, as
 * does every job when no built `dist/indexWorker.js` is found (tests running from source).
 */
export function creditJobWorkerScript(options: CreditJobOptions): string | undefined {
  if (options.jobWorkerScript === false) return undefined;
  if (options.episodes !== undefined || options.dryRun || options.replayDeps !== undefined) return undefined;
  return options.jobWorkerScript ?? bundledIndexWorkerScript();
}

/**
 * Runs the credit job in a worker thread (`script`: the built `dist/indexWorker.js`), so the
 * caller's thread (the extension host's, the CLI's) stays free and the pass's heap is bounded
 * ({@link creditJobHeapLimits}). The hooks arrive as messages; cancelling aborts the worker's
 * evaluator calls within its poll; `onRunStored` is called once the job has ended, on a connection
 * of the caller's, with the same rows.
 */
export async function runCreditJobInWorker(
  options: CreditJobOptions,
  hooks: CreditJobHooks,
  script: string,
): Promise<CreditJobResult> {
  const { replayDeps: _inProcessOnly, ...crossing } = options;
  const cancel = new SharedArrayBuffer(4);
  const data: CreditJobWorkerData = {
    role: 'credit-job',
    options: plainCopy(crossing),
    cancel,
    episodes: !!hooks.onEpisode,
  };
  const signal = jobSignal(hooks);
  const cancelWorker = (): void => {
    Atomics.store(new Int32Array(cancel), 0, 1);
  };
  if (signal.signal.aborted) cancelWorker();
  signal.signal.addEventListener('abort', cancelWorker, { once: true });
  try {
    const result = await runWorkerJob<CreditJobWorkerMessage, CreditJobResult>({
      script,
      workerData: data,
      limits: creditJobHeapLimits,
      job: 'the credit pass',
      kept: 'what it stored before is kept',
      answer: (message) => {
        if (message.kind === 'done') return { result: message.result };
        if (message.kind === 'failed')
          return message.noIndex ? new NoIndexError(message.message) : new Error(message.message);
        forwardHook(message, hooks);
        return undefined;
      },
    });
    reportStoredRuns(options, hooks, result);
    return result;
  } finally {
    signal.signal.removeEventListener('abort', cancelWorker);
    signal.dispose();
  }
}

/**
 * `value` as plain objects and arrays, which a thread can receive. Why: a host's options may hold
 * objects that structured cloning refuses ("#<Object> could not be cloned"): VS Code's settings
 * (`workspace.getConfiguration`) are proxies, and an evaluator choice read from them is one.
 */
export function plainCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => plainCopy(item)) as T;
  if (typeof value === 'function') throw new Error('a credit job option cannot be a function to run in a worker');
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainCopy(item as unknown)])) as T;
}

function forwardHook(
  message: Exclude<CreditJobWorkerMessage, { kind: 'done' | 'failed' }>,
  hooks: CreditJobHooks,
): void {
  switch (message.kind) {
    case 'progress':
      return hooks.onProgress?.(message.done, message.total, message.run);
    case 'replay-stats':
      return hooks.onReplayStats?.(message.stats);
    case 'estimate':
      return hooks.onEstimate?.(message.run, message.estimate);
    case 'warning':
      return hooks.onWarning?.(message.message);
    case 'episode':
      return hooks.onEpisode?.(message.report);
  }
}

/** `onRunStored` of every run the worker's job stored, on a connection of the caller's. */
function reportStoredRuns(options: CreditJobOptions, hooks: CreditJobHooks, result: CreditJobResult): void {
  if (!hooks.onRunStored || options.dryRun || result.runs.length === 0) return;
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location) throw new NoIndexError(`no index for ${options.root}`);
  const store = IndexStore.open(location.path);
  try {
    const output = new CreditRepository(store.db);
    for (const run of result.runs) reportStoredRun(output, hooks, options, run);
  } finally {
    store.close();
  }
}
