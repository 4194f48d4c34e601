import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { endWorker, startWorker } from '../../ingest/workerThread';
import type { CreditRepository, NewCachedEvaluation, StoredCalibration } from '../../store/creditRepository';
import {
  packCreditRows,
  type CreditWriteReply,
  type CreditWriteRequest,
  type CreditWriteWorkerData,
} from './creditWriteProtocol';

/** The arguments of one credit write, as {@link CreditRepository.writeCredit} takes them, `replace` always given. */
type CreditWrite = Required<Parameters<CreditRepository['writeCredit']>>;

/**
 * Every write a credit pass makes while it runs (its rows and failures, the evaluator's cache, the
 * calibration), on the pass's own connection or in a write worker ({@link startCreditWrites}).
 * Nothing else writes to the index from the pass's thread until {@link settle} has resolved: the
 * worker holds the write lock for its spans.
 */
export interface CreditWrites {
  writeCredit(...write: CreditWrite): void;
  storeEvaluations(rows: readonly NewCachedEvaluation[]): void;
  storeCalibration(runId: number, calibration: StoredCalibration): void;
  /** Resolves when fewer writes are queued than the worker may fall behind by (at once on the pass's connection). */
  ready(): Promise<void>;
  /** Resolves once every write so far is committed (what the pass's thread reads next sees them); rejects with a failed write's error. */
  settle(): Promise<void>;
  /** Settles, then ends the worker, if any. */
  close(): Promise<void>;
}

/** The pass's writes on its own connection, as before the worker: each call writes at once. */
export function directCreditWrites(output: CreditRepository): CreditWrites {
  const endWrites = (): Promise<void> => {
    output.endWrites();
    return Promise.resolve();
  };
  return {
    writeCredit: (runId, params, rows, failures, replace) => output.writeCredit(runId, params, rows, failures, replace),
    storeEvaluations: (rows) => output.storeEvaluations(rows),
    storeCalibration: (runId, calibration) => output.storeCalibration(runId, calibration),
    ready: () => Promise.resolve(),
    settle: endWrites,
    close: endWrites,
  };
}

/**
 * Passes of at least this many episodes write in a worker. Starting one (a thread, the bundle, a
 * connection) takes about 60 ms; a pass of 2,000 episodes spends about as long writing.
 */
export const writeWorkerMinEpisodes = 2000;

/**
 * The index worker bundled beside the running bundle (`dist/indexWorker.js` next to the extension,
 * the CLI and the benchmark), which a pass writes in by default; none when running from source.
 */
export function bundledIndexWorkerScript(dir = __dirname): string | undefined {
  const script = join(dir, 'indexWorker.js');
  return existsSync(script) ? script : undefined;
}

/**
 * Writes the worker may be behind by before the pass waits: about 8,000 episodes' rows, a few MB
 * as columns. The worker's span commits (each second, hundreds of ms with the WAL's writes) held a
 * pass that could be only 8 writes ahead (BENCHMARKS.md, issue 15, twenty-third part).
 */
const maxQueued = 32;

/**
 * Starts a write worker on `dbPath` (`script`: the built `dist/indexWorker.js`). The rows cross as
 * columns (creditWriteProtocol.ts); the worker stores them with the same {@link CreditRepository}
 * statements and spans. Why a second thread: storing a pass's rows takes as long as reading and
 * computing them (BENCHMARKS.md, issue 15, thirteenth part), and the two now overlap on two cores.
 *
 * The pass does not wait for the worker to start (about 90 ms: the bundle, the connection): what it
 * writes meanwhile waits in the worker's port, at most {@link maxQueued} writes before the pass
 * waits. A worker that fails to start fails the pass at its next write, wait or close.
 * `staleRun`: a run whose aggregates the worker marks stale first, in a commit of its own before
 * any row (the `StaleMark` of viewAggregates.ts, which the pass took).
 */
export function startCreditWrites(script: string, dbPath: string, staleRun?: number): CreditWrites {
  const data: CreditWriteWorkerData = {
    role: 'credit-writes',
    dbPath,
    ...(staleRun !== undefined ? { staleRun } : {}),
  };
  return new WorkerCreditWrites(startWorker(script, { workerData: data }));
}

class WorkerCreditWrites implements CreditWrites {
  private error: Error | undefined;
  private queued = 0;
  private seq = 0;
  private readonly committed = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  /** The pass's concurrent episodes waiting for the worker to catch up. */
  private waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private closed = false;

  constructor(private readonly worker: Worker) {
    worker.on('message', (reply: CreditWriteReply) => this.onReply(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`the credit write worker exited (code ${code}) before the pass ended`));
    });
  }

  writeCredit(...[runId, params, rows, failures, replace]: CreditWrite): void {
    const packed = packCreditRows(rows);
    this.post({ kind: 'credit', runId, params, rows: packed, failures, replace }, [
      packed.numbers.buffer,
      packed.nulls.buffer,
      packed.textIds.buffer,
    ]);
  }

  storeEvaluations(rows: readonly NewCachedEvaluation[]): void {
    this.post({ kind: 'evaluations', rows });
  }

  storeCalibration(runId: number, calibration: StoredCalibration): void {
    this.post({ kind: 'calibration', runId, calibration });
  }

  ready(): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    if (this.queued < maxQueued) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
    });
  }

  settle(): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.committed.set(seq, { resolve, reject });
      this.worker.postMessage({ kind: 'commit', seq } satisfies CreditWriteRequest);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (!this.error) await this.settle();
    } finally {
      this.closed = true;
      await endWorker(this.worker);
    }
    if (this.error) throw this.error;
  }

  /** Posts a write; a write after a failed one throws that failure, as the pass's own connection would have. */
  private post(request: CreditWriteRequest, transfer: ArrayBuffer[] = []): void {
    if (this.error) throw this.error;
    this.queued++;
    this.worker.postMessage(request, transfer);
  }

  private onReply(reply: CreditWriteReply): void {
    if (reply.kind === 'done') {
      this.queued--;
      if (this.queued < maxQueued) for (const waiter of this.waiting.splice(0)) waiter.resolve();
    } else if (reply.kind === 'committed') {
      this.committed.get(reply.seq)?.resolve();
      this.committed.delete(reply.seq);
    } else this.fail(new Error(reply.message));
  }

  private fail(error: Error): void {
    this.error ??= error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.error);
    for (const pending of this.committed.values()) pending.reject(this.error);
    this.committed.clear();
  }
}
