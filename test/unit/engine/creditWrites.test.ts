import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CreditRow } from '../../../src/core/creditInput';
import { runCreditJob, type CreditJobOptions } from '../../../src/engine/credit/creditJob';
import { packCreditRows, unpackCreditRows } from '../../../src/engine/credit/creditWriteProtocol';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';
import { indexedDemo, indexWorkerScript, storedCredit } from '../../builders/storedCredit';

// The credit pass's write worker (src/engine/credit/creditWrites.ts): the rows it stores are those
// the pass's own connection stores, byte for byte; a failed write is the pass's error, and what
// was written before it stays.

const run = 'planner-solver-verifier';
const script = indexWorkerScript;
const indexed = indexedDemo(1280);
const demo = indexed.root;
const copyOfIndex = (): string => indexed.copyOfIndex();

const inWorker = { writeWorkerScript: script, writeWorkerMinEpisodes: 1 } as const;
const onThread = { writeWorkerScript: false } as const;

/** The same pass on two copies of the index (or again on those of `earlier`): written by the pass's thread and by the worker. */
async function storedBothWays(
  options: Omit<CreditJobOptions, 'root' | 'dbPath'>,
  earlier?: { onThreadDb: string; inWorkerDb: string },
) {
  const onThreadDb = earlier?.onThreadDb ?? copyOfIndex();
  const inWorkerDb = earlier?.inWorkerDb ?? copyOfIndex();
  const direct = await runCreditJob({ root: demo, dbPath: onThreadDb, run, ...options, ...onThread });
  const worker = await runCreditJob({ root: demo, dbPath: inWorkerDb, run, ...options, ...inWorker });
  return {
    direct,
    worker,
    onThreadDb,
    inWorkerDb,
    onThread: storedCredit(onThreadDb),
    inWorker: storedCredit(inWorkerDb),
  };
}

test('credit rows cross to the worker as columns and come back equal, nulls and texts included', () => {
  const rows: CreditRow[] = [
    {
      episodeId: 1,
      agentId: 2,
      messageSeq: null,
      value: -0.25,
      stderr: null,
      ciLow: null,
      ciHigh: null,
      n: null,
      status: 'exact',
      source: 'logged',
      intervention: 'remove',
      advantage: null,
    },
    {
      episodeId: 2 ** 40,
      agentId: 3,
      messageSeq: 7,
      value: 1 / 3,
      stderr: 0.01,
      ciLow: -1e-300,
      ciHigh: 5,
      n: 64,
      status: 'estimated',
      source: 'logged+checked',
      intervention: null,
      advantage: 0,
    },
    // A value the type calls non-null but a row holds null: it stays null (nothing is filled in).
    {
      episodeId: 3,
      agentId: 2,
      messageSeq: 0,
      value: null as unknown as number,
      stderr: 0,
      ciLow: 0,
      ciHigh: 0,
      n: 0,
      status: 'approximate',
      source: 'logged',
      intervention: 'replace_text',
      advantage: -2.5,
    },
  ];
  const packed = packCreditRows(rows);
  assert.equal(packed.count, 3);
  assert.deepEqual(packed.texts, [
    'exact',
    'logged',
    'remove',
    'estimated',
    'logged+checked',
    'approximate',
    'replace_text',
  ]);
  assert.deepEqual(unpackCreditRows(packed), rows);
  assert.deepEqual(unpackCreditRows(packCreditRows([])), []);
});

test('a LOO pass from logged values written by the worker stores what the pass thread stores', async () => {
  const both = await storedBothWays({ method: 'loo' });
  assert.equal(both.worker.runs[0]?.computed, 1280);
  assert.deepEqual(both.worker.runs[0]?.agents, both.direct.runs[0]?.agents);
  assert.equal(both.inWorker.credit?.length, 1280 * 3);
  assert.ok((both.inWorker.aggregates?.length ?? 0) > 0 && (both.inWorker.signal?.length ?? 0) > 0);
  assert.deepEqual(both.inWorker, both.onThread);
});

test('an evaluator pass written by the worker: its cache, its calibration and its rows are the pass thread’s', async () => {
  // Nothing logged is used: every coalition is scored by the checker, cached and calibrated first.
  const both = await storedBothWays({ method: 'shapley', useLogged: false, steps: [1, 4] });
  assert.ok(both.worker.values.evaluated > 0);
  assert.equal(both.worker.values.evaluated, both.direct.values.evaluated);
  assert.ok((both.inWorker.evaluations?.length ?? 0) > 0, 'the checker’s values are cached');
  assert.equal(both.inWorker.calibration?.length, 1);
  assert.deepEqual(both.inWorker, both.onThread);
  // A second pass finds every value in the cache the worker wrote, as in the one the pass wrote.
  const again = await storedBothWays({ method: 'shapley', useLogged: false, steps: [1, 4] }, both);
  assert.equal(again.worker.values.evaluated, 0);
  assert.ok(again.worker.values.cached >= both.worker.values.evaluated);
  assert.deepEqual(again.worker.values, again.direct.values);
});

/** Whether the run's dashboard aggregates are marked current (credit_view_state, viewAggregates.ts). */
function aggregatesFresh(dbPath: string): boolean {
  const store = IndexStore.open(dbPath);
  try {
    const row = store.db
      .prepare('SELECT fresh FROM credit_view_state JOIN run USING (run_id) WHERE run.name = ?')
      .get(run) as { fresh: number } | undefined;
    return row?.fresh === 1;
  } finally {
    store.close();
  }
}

test('a write that fails in the worker fails the pass, and the rows written before it are kept', async () => {
  const dbPath = copyOfIndex();
  // Current aggregates first, so that the failed pass's stale mark (the worker's first commit) shows.
  await runCreditJob({ root: demo, dbPath, run, method: 'shared', ...onThread });
  assert.equal(aggregatesFresh(dbPath), true);
  const store = IndexStore.open(dbPath);
  const last = store.db
    .prepare('SELECT max(episode_id) AS id FROM episode JOIN run USING (run_id) WHERE run.name = ?')
    .get(run) as { id: number };
  store.db.exec(`CREATE TRIGGER planted BEFORE INSERT ON credit_value WHEN NEW.episode_id = ${last.id}
    BEGIN SELECT RAISE(ABORT, 'planted write failure'); END`);
  store.close();
  await assert.rejects(runCreditJob({ root: demo, dbPath, run, method: 'loo', ...inWorker }), /planted write failure/);
  const kept = storedCredit(dbPath).credit?.length ?? 0;
  assert.ok(kept > 1280 * 3 && kept < 1280 * 6, `rows kept: ${kept}`);
  assert.equal(aggregatesFresh(dbPath), false, 'the views read the rows a failed pass left');
});

test('a worker that cannot start fails the pass with the reason; below the threshold the pass writes itself', async () => {
  const dbPath = copyOfIndex();
  await runCreditJob({ root: demo, dbPath, run, method: 'shared', ...onThread });
  const missing = { writeWorkerScript: join(tempFolder(), 'indexWorker.js') };
  await assert.rejects(
    runCreditJob({ root: demo, dbPath, run, method: 'loo', ...missing, writeWorkerMinEpisodes: 1 }),
    /Cannot find module/,
  );
  // The pass gave its stale mark to the worker, which never started: nothing changed, the aggregates stand.
  assert.equal(aggregatesFresh(dbPath), true);
  const direct = await runCreditJob({
    root: demo,
    dbPath,
    run,
    method: 'loo',
    ...missing,
    writeWorkerMinEpisodes: 1281,
  });
  assert.equal(direct.runs[0]?.computed, 1280);
});
