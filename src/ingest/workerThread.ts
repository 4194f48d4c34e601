import { setFlagsFromString } from 'node:v8';
import { parentPort, Worker, type MessagePort, type WorkerOptions } from 'node:worker_threads';

// How Credit Lens starts and ends its worker threads (parse workers, the index worker, the side
// full-text index, the job workers): every one is started by startWorker and ended by endWorker; a
// job that answers once (the credit job, the audit's reading, the table) runs through runWorkerJob.

/**
 * The young generation of every worker thread, in MB. V8 lets each isolate's young generation grow
 * to 3 × 16 MB, and a pass has up to four isolates; a worker's garbage is short-lived batches, which
 * a small young generation collects as well. Measured on the 1 GB benchmark run (BENCHMARKS.md,
 * issue 15, ninth part, paired): peak RSS of `table` 272 → 201 MiB, of the cold index 320 → 262 MiB,
 * for a few percent more wall time in the cold index. The index worker, which writes every batch, sets
 * its own (engine/runIndexInWorker.ts).
 */
export const workerYoungGenerationMb = 8;

/**
 * A worker thread running `script`, with the {@link workerYoungGenerationMb} cap unless `options`
 * sets its own, whose isolate compiles optimized code on its own thread ({@link ownThreadCompilation}).
 */
export function startWorker(script: string, options: WorkerOptions = {}): Worker {
  return ownThreadCompilation(
    () =>
      new Worker(script, {
        ...options,
        resourceLimits: { maxYoungGenerationSizeMb: workerYoungGenerationMb, ...options.resourceLimits },
      }),
  );
}

/** Workers started and not yet online: V8's concurrent recompilation stays off until none is left. */
let starting = 0;
const concurrentByDefault = ![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
  arg.includes('--no-concurrent-recompilation'),
);

/**
 * Creates a worker whose isolate has no background optimizing compiler. Why: on Node 20 a worker
 * whose event loop ends while a background Turbofan job of its isolate waits for a garbage
 * collection deadlocks in `NodePlatform::DrainTasks` (nodejs/node#54918): the job waits for the
 * worker's thread, the thread waits for all background jobs, the worker never exits,
 * `terminate()` cannot end it, and the process hangs (`credit-lens table` on a loaded 2-core
 * machine: one run in about fifteen; docs/architecture.md, "One way to start and end a worker
 * thread"). V8 reads `--concurrent-recompilation` when an isolate is created, so it is turned off
 * while workers start and back on once they are online: the host's own isolate (the extension
 * host's, the CLI's) and workers others start later keep their background compiler.
 */
function ownThreadCompilation(create: () => Worker): Worker {
  if (starting++ === 0) setFlagsFromString('--no-concurrent-recompilation');
  let counted = true;
  const started = (): void => {
    if (!counted) return;
    counted = false;
    if (--starting === 0 && concurrentByDefault) setFlagsFromString('--concurrent-recompilation');
  };
  try {
    const worker = create();
    worker.once('online', started);
    worker.once('exit', started);
    return worker;
  } catch (error) {
    started();
    throw error;
  }
}

/**
 * Why a worker is asked to end rather than terminated: on Node 20, `worker.terminate()` while V8
 * still compiles the worker's hot code on a background thread aborts the whole process
 * (node_platform.cc, `ForIsolate`: "Assertion failed: (data.first) != nullptr"); `credit-lens
 * table` died so in about one run in twenty. A thread whose event loop ends on its own drains its
 * background tasks before its isolate goes, so that race cannot happen.
 */
export const exitRequest = { kind: 'exit' } as const;
export type ExitRequest = typeof exitRequest;

/** Worker side: true (and the ports closed, so the thread's event loop ends) when `message` is {@link exitRequest}. */
export function closedOnExitRequest(
  message: unknown,
  ports: readonly (MessagePort | null | undefined)[],
): message is ExitRequest {
  if (typeof message !== 'object' || message === null || (message as { kind?: unknown }).kind !== exitRequest.kind)
    return false;
  for (const port of ports) port?.close();
  return true;
}

/** How long a worker asked to exit may take before it is terminated (a thread busy with a long synchronous read). */
export const exitGraceMs = 2000;

/**
 * Ends `worker`: asks it to exit ({@link exitRequest}) and resolves once its thread has ended,
 * terminating it only if it has not after `graceMs`. Resolves at once for a thread already ended.
 */
export function endWorker(worker: Worker, graceMs = exitGraceMs): Promise<void> {
  if (worker.threadId === -1) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => void worker.terminate(), graceMs);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage(exitRequest);
  });
}

/**
 * A worker's fatal error as its host reports it: running out of its bounded heap (`limits`) says
 * so, what the limit is and what is `kept`; any other error as it is.
 */
export function outOfMemoryError(
  error: Error & { code?: string },
  job: string,
  limits: { readonly maxOldGenerationSizeMb: number },
  kept: string,
): Error {
  if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  return new Error(`${job} ran out of its ${limits.maxOldGenerationSizeMb} MB heap (${error.message}); ${kept}`);
}

/** A worker's heap bounds, as `resourceLimits` takes them. */
export interface WorkerHeapLimits {
  readonly maxOldGenerationSizeMb: number;
  readonly maxYoungGenerationSizeMb: number;
}

/** A job one worker thread runs and answers once, as {@link runWorkerJob} takes it. */
export interface WorkerJob<Message, Result> {
  /** The built worker script (dist/indexWorker.js). */
  readonly script: string;
  /** The worker's data: its role and request. */
  readonly workerData: unknown;
  readonly limits: WorkerHeapLimits;
  /** The job as errors name it ("the audit"). */
  readonly job: string;
  /** What an out-of-memory error says is kept ({@link outOfMemoryError}). */
  readonly kept: string;
  /**
   * What a message from the worker means: the job's result (`{ result }`), an Error when it
   * failed, or undefined for a message on the way (progress), which `answer` has dealt with.
   */
  readonly answer: (message: Message) => { readonly result: Result } | Error | undefined;
}

/**
 * Runs `job` in a worker started with its heap bounds and resolves with its answer: rejects with
 * the worker's failure, its fatal error ({@link outOfMemoryError}) or its thread's end before an
 * answer; the worker is ended ({@link endWorker}) either way.
 */
export async function runWorkerJob<Message, Result>(job: WorkerJob<Message, Result>): Promise<Result> {
  const worker = startWorker(job.script, { workerData: job.workerData, resourceLimits: job.limits });
  try {
    return await new Promise<Result>((resolve, reject) => {
      worker.on('message', (message: Message) => {
        const answer = job.answer(message);
        if (answer instanceof Error) reject(answer);
        else if (answer !== undefined) resolve(answer.result);
      });
      worker.on('error', (error: Error & { code?: string }) =>
        reject(outOfMemoryError(error, job.job, job.limits, job.kept)),
      );
      worker.on('exit', (code) => reject(new Error(`${job.job}'s worker exited (code ${code}) before it ended`)));
    });
  } finally {
    await endWorker(worker);
  }
}

/**
 * Worker side of {@link runWorkerJob}: runs `job`, which may post messages on the way (progress),
 * posts the message it resolves with (its result) or `failed(error)`, then waits for the host's
 * exit request ({@link closedOnExitRequest}), so the thread ends the one way every worker ends.
 */
export function answerWorkerJob<Message>(
  job: (post: (message: Message) => void) => Promise<Message>,
  failed: (error: unknown) => Message,
): void {
  const post = (message: Message): void => parentPort?.postMessage(message);
  parentPort?.on('message', (message: unknown) => closedOnExitRequest(message, [parentPort]));
  job(post).then(post, (error: unknown) => post(failed(error)));
}
