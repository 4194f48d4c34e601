import { parentPort } from 'node:worker_threads';
import { closedOnExitRequest } from '../../ingest/workerThread';
import { CreditRepository } from '../../store/creditRepository';
import { IndexStore } from '../../store/indexStore';
import { markAggregatesStale } from '../../store/viewAggregates';
import {
  unpackCreditRows,
  type CreditWriteReply,
  type CreditWriteRequest,
  type CreditWriteWorkerData,
} from './creditWriteProtocol';

/**
 * The write worker of a credit pass (dist/indexWorker.js in the `credit-writes` role; creditWrites.ts
 * starts it): its own connection to the index and its own {@link CreditRepository}, so the rows are
 * stored by the same statements and in the same write spans as on the pass's thread. The first
 * failure is reported and every later request refused, as a pass that threw stops writing.
 */
export function runCreditWriteWorker(data: CreditWriteWorkerData): void {
  const post = (reply: CreditWriteReply): void => parentPort?.postMessage(reply);
  let store: IndexStore | undefined;
  try {
    store = IndexStore.open(data.dbPath, { journalsInMemory: true });
    if (data.staleRun !== undefined) markAggregatesStale(store.db, data.staleRun);
  } catch (error) {
    store?.close();
    post(failure(error));
    parentPort?.close();
    return;
  }
  const output = new CreditRepository(store.db);
  let failed = false;
  parentPort?.on('message', (message: unknown) => {
    if (closedOnExitRequest(message, [parentPort])) {
      // What was written before a failed write is kept, as on the pass's own connection.
      tryOrReport(() => output.endWrites());
      store.close();
      return;
    }
    if (failed) return;
    failed = !tryOrReport(() => post(handle(output, message as CreditWriteRequest)));
  });

  function tryOrReport(write: () => void): boolean {
    try {
      write();
      return true;
    } catch (error) {
      post(failure(error));
      return false;
    }
  }
}

const done: CreditWriteReply = { kind: 'done' };

function handle(output: CreditRepository, request: CreditWriteRequest): CreditWriteReply {
  switch (request.kind) {
    case 'credit':
      output.writeCredit(
        request.runId,
        request.params,
        unpackCreditRows(request.rows),
        request.failures,
        request.replace,
      );
      return done;
    case 'evaluations':
      output.storeEvaluations(request.rows);
      return done;
    case 'calibration':
      output.storeCalibration(request.runId, request.calibration);
      return done;
    case 'commit':
      output.endWrites();
      return { kind: 'committed', seq: request.seq };
  }
}

function failure(error: unknown): CreditWriteReply {
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}
