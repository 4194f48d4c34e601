import type { Worker } from 'node:worker_threads';
import type { ParsedBatch, ParseRequest } from './parseLines';
import { batchOfMessage, maxInFlight, maxTextsInFlight, type BatchProducer, type BatchSink } from './batchProducer';
import { flagCancel, flagInFlight, type ParseWorkerData, type ParseWorkerMessage } from './parseWorkerProtocol';
import { endWorker, outOfMemoryError, startWorker } from './workerThread';

/** One parse worker of a pool: its thread, its flags, and the requests it was given (global indices). */
interface PoolWorker {
  readonly worker: Worker;
  readonly flags: Int32Array;
  assigned: number[];
  /** Removes the listeners of the current parseAll (only those: startWorker keeps its own). */
  detach?: () => void;
}

/** A batch received ahead of its turn, acknowledged (so its worker may post more) only when delivered. */
interface Waiting {
  readonly worker: PoolWorker;
  readonly batch: ParsedBatch;
}

/**
 * Parses with `size` parse workers (`dist/parseWorker.js`), for a consumer lighter than the parse
 * (a pass that writes no index: engine/traceCredit): request i goes to worker i mod size, and
 * batches reach `onBatch` in request order, as from one worker, so the first of two episodes with
 * the same id is the one a single worker would give. A batch that arrives before its turn waits and
 * is acknowledged only when delivered, so each worker stays at most `maxInFlight` batches ahead and
 * memory stays bounded; the worker holding the current request is never held back, so none deadlocks.
 */
export function pooledProducer(script: string, isCancelled: () => boolean, size: number, job?: unknown): BatchProducer {
  const workers: PoolWorker[] = Array.from({ length: Math.max(1, size) }, () => startPoolWorker(script, job));
  const relayCancel = setInterval(() => {
    if (isCancelled()) for (const w of workers) Atomics.store(w.flags, flagCancel, 1);
  }, 20);
  return {
    parseAll: (requests, onBatch) => parseInOrder(workers, requests, onBatch),
    close: async () => {
      clearInterval(relayCancel);
      await Promise.all(
        workers.map((w) => {
          w.detach?.();
          return endWorker(w.worker);
        }),
      );
    },
  };
}

/**
 * The old generation of a pool's parse workers. Why bounded: V8 lets an isolate's old generation
 * grow by a factor that rises with its limit (4× under a large machine's default, about 1.6× at 1 GB),
 * and two parse workers' heaps grew so through a 10 GB pass (`table` on Node 24, the table's own
 * worker bounded: 391–400 MiB peak RSS unbounded, 321–343 bounded anywhere from 128 MB to 1 GB, 387
 * at 2 GB). 1 GB, not less: a trace file read whole (a JSON log, not JSON Lines) is parsed in one
 * piece (BENCHMARKS.md, issue 15, twenty-fifth part).
 */
export const parsePoolHeapLimits = { maxOldGenerationSizeMb: 1024 } as const;

function startPoolWorker(script: string, job: unknown): PoolWorker {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const data: ParseWorkerData = {
    flags: flags.buffer,
    maxInFlight,
    maxTextsInFlight,
    ...(job !== undefined ? { job } : {}),
  };
  return {
    worker: startWorker(script, { workerData: data, resourceLimits: parsePoolHeapLimits }),
    flags,
    assigned: [],
  };
}

const outOfMemoryRemedy =
  'a trace file too large to parse there can be indexed (`credit-lens index`, whose parse has no such bound) and its credit computed from the index';

function parseInOrder(
  workers: readonly PoolWorker[],
  requests: readonly ParseRequest[],
  onBatch: BatchSink,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let next = 0;
    let running = workers.length;
    const waiting = new Map<number, Waiting[]>();
    const ended = new Set<number>();
    const deliver = (w: PoolWorker, index: number, batch: ParsedBatch): void => {
      try {
        onBatch(index, batch);
      } finally {
        Atomics.sub(w.flags, flagInFlight, 1);
        Atomics.notify(w.flags, flagInFlight);
      }
    };
    const advance = (): void => {
      while (ended.has(next)) {
        ended.delete(next);
        next++;
        for (const { worker, batch } of waiting.get(next) ?? []) deliver(worker, next, batch);
        waiting.delete(next);
      }
    };
    const fail = (error: Error): void => {
      for (const w of workers) Atomics.store(w.flags, flagCancel, 1);
      reject(error);
    };
    workers.forEach((w, k) => {
      w.assigned = requests.map((_, i) => i).filter((i) => i % workers.length === k);
      w.detach?.();
      const onMessage = (message: ParseWorkerMessage): void => {
        try {
          if (message.kind === 'failed') return fail(new Error(message.message));
          if (message.kind === 'done') {
            if (--running === 0) resolve();
            return;
          }
          const index = w.assigned[message.index] ?? -1;
          if (message.kind === 'end') {
            ended.add(index);
            return advance();
          }
          const batch = batchOfMessage(message);
          if (index === next) deliver(w, index, batch);
          else {
            const queue = waiting.get(index) ?? [];
            queue.push({ worker: w, batch });
            waiting.set(index, queue);
          }
        } catch (error) {
          fail(error as Error);
        }
      };
      const onExit = (code: number): void => fail(new Error(`parse worker exited with code ${code}`));
      const onError = (error: Error): void =>
        fail(outOfMemoryError(error, 'a parse worker', parsePoolHeapLimits, outOfMemoryRemedy));
      w.worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      w.detach = () => w.worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      w.worker.postMessage(w.assigned.map((i) => requests[i]));
    });
    if (requests.length === 0) resolve();
  });
}
