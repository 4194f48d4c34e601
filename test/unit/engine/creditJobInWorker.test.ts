import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  runCreditJob,
  type CreditJobHooks,
  type CreditJobOptions,
  type EpisodeCreditReport,
  type RunFailure,
} from '../../../src/engine/credit/creditJob';
import { creditJobWorkerScript } from '../../../src/engine/credit/creditJobInWorker';
import { failureSampleSize } from '../../../src/engine/credit/failureTally';
import { NoIndexError } from '../../../src/engine/indexJob';
import type { CreditOutputRow } from '../../../src/store/creditRepository';
import { tempFolder } from '../../builders/episodeBuilder';
import { indexedDemo, indexWorkerScript, storedCredit } from '../../builders/storedCredit';

// A credit job run in its worker thread (src/engine/credit/creditJobInWorker.ts): it stores what
// the same job stores on the caller's thread, row for row, returns the same result, and its hooks
// (progress, episodes, the stored rows, cancellation, errors) reach the caller as they would.

const run = 'planner-solver-verifier';
const script = indexWorkerScript;
const indexed = indexedDemo(1280);
const demo = indexed.root;
const copyOfIndex = (): string => indexed.copyOfIndex();

/** Everything a job tells its caller through its hooks, recorded. */
function recordingHooks() {
  const seen = {
    progress: 0,
    episodes: [] as EpisodeCreditReport[],
    stored: [] as CreditOutputRow[],
    failures: [] as RunFailure[],
    runs: 0,
  };
  const hooks: CreditJobHooks = {
    onProgress: () => seen.progress++,
    onEpisode: (report) => seen.episodes.push(report),
    onRunStored: (_result, rows, failures) => {
      seen.runs++;
      for (const row of rows) seen.stored.push(row);
      seen.failures.push(...failures());
    },
  };
  return { seen, hooks };
}

/** The same job on two copies of the index: on the caller's thread, and in the job's worker. */
async function bothWays(options: Omit<CreditJobOptions, 'root' | 'dbPath'>) {
  const onThreadDb = copyOfIndex();
  const inWorkerDb = copyOfIndex();
  const onThread = recordingHooks();
  const inWorker = recordingHooks();
  const common = { root: demo, run, writeWorkerScript: script, writeWorkerMinEpisodes: 1, ...options };
  const direct = await runCreditJob({ ...common, dbPath: onThreadDb, jobWorkerScript: false }, onThread.hooks);
  const worker = await runCreditJob({ ...common, dbPath: inWorkerDb, jobWorkerScript: script }, inWorker.hooks);
  return { direct, worker, onThread, inWorker, onThreadDb, inWorkerDb };
}

/** A result without its timing, to compare two jobs'. */
function timeless<T extends { elapsedMs: number }>(result: T): Omit<T, 'elapsedMs'> {
  const { elapsedMs: _elapsed, ...rest } = result;
  return rest;
}

for (const method of ['loo', 'shapley'] as const)
  test(`${method}: the job in its worker stores and returns what it does on the caller's thread`, async () => {
    const both = await bothWays({ method });
    assert.equal(both.worker.runs[0]?.computed, 1280);
    assert.deepEqual(timeless(both.worker), timeless(both.direct));
    assert.deepEqual(storedCredit(both.inWorkerDb), storedCredit(both.onThreadDb));
    // The hooks: every episode's report, progress, and the run's stored rows read on the caller's connection.
    assert.equal(both.inWorker.seen.episodes.length, 1280);
    assert.deepEqual(
      both.inWorker.seen.episodes.map((r) => [r.episode.externalId, [...r.rows.keys()]]),
      both.onThread.seen.episodes.map((r) => [r.episode.externalId, [...r.rows.keys()]]),
    );
    assert.ok(both.inWorker.seen.progress > 0);
    assert.equal(both.inWorker.seen.runs, 1);
    assert.ok(both.inWorker.seen.stored.length > 1280);
    assert.deepEqual(both.inWorker.seen.stored, both.onThread.seen.stored);
  });

test('a pass the data cannot answer: every episode not identifiable, the same both ways, each one read back from the index', async () => {
  const both = await bothWays({ method: 'loo', useLogged: false, evaluator: { kind: 'none' } });
  const [run] = both.worker.runs;
  assert.equal(run?.computed, 0);
  assert.equal(run?.unidentified, 1280);
  assert.equal(run?.failed, 0);
  assert.equal(
    run?.problems.reduce((sum, g) => sum + g.n, 0),
    1280,
  );
  assert.deepEqual(timeless(both.worker), timeless(both.direct));
  assert.deepEqual(storedCredit(both.inWorkerDb), storedCredit(both.onThreadDb));
  // The pass kept the first 1,000; the index gives back all 1,280, those first, record for record.
  assert.equal(run?.failures.length, failureSampleSize);
  for (const seen of [both.inWorker.seen, both.onThread.seen]) {
    assert.equal(seen.failures.length, 1280);
    assert.deepEqual(seen.failures.slice(0, failureSampleSize), run?.failures);
  }
  assert.match(run?.failures[0]?.where ?? '', /\.jsonl:\d+$/);
});

test("options a thread cannot receive as they are (VS Code's settings are proxies) cross as plain copies", async () => {
  const fromSettings = <T extends object>(value: T): T => new Proxy(value, {});
  assert.throws(() => structuredClone(fromSettings({ kind: 'none' })), /could not be cloned/);
  const result = await runCreditJob({
    root: demo,
    dbPath: copyOfIndex(),
    run,
    method: 'loo',
    evaluator: fromSettings({ kind: 'builtin' as const, name: 'final-answer', options: fromSettings({}) }),
    calibration: fromSettings({ threshold: 0.9 }),
    steps: fromSettings([-Infinity, Infinity] as const),
    jobWorkerScript: script,
  });
  assert.equal(result.runs[0]?.computed, 1280);
});

test('a job cancelled before it starts stops in its worker, and says so', async () => {
  const controller = new AbortController();
  controller.abort();
  const result = await runCreditJob(
    { root: demo, dbPath: copyOfIndex(), run, method: 'loo', jobWorkerScript: script },
    { signal: controller.signal },
  );
  assert.equal(result.cancelled, true);
  assert.equal(result.runs.length, 0);
});

test("the worker's errors are the caller's: no index, and an unknown run", async () => {
  await assert.rejects(
    runCreditJob({ root: tempFolder(), method: 'loo', jobWorkerScript: script }),
    (error: unknown) => error instanceof NoIndexError && /no index for/.test(error.message),
  );
  await assert.rejects(
    runCreditJob({ root: demo, dbPath: copyOfIndex(), run: 'no-such-run', method: 'loo', jobWorkerScript: script }),
    /no run named "no-such-run"/,
  );
});

test("single episodes, dry runs and a replay's host services stay on the caller's thread", () => {
  const base: CreditJobOptions = { root: demo, method: 'loo', jobWorkerScript: script };
  assert.equal(creditJobWorkerScript(base), script);
  assert.equal(creditJobWorkerScript({ ...base, episodes: [1] }), undefined);
  assert.equal(creditJobWorkerScript({ ...base, dryRun: true }), undefined);
  assert.equal(creditJobWorkerScript({ ...base, replayDeps: { env: {} } }), undefined);
  assert.equal(creditJobWorkerScript({ ...base, jobWorkerScript: false }), undefined);
  // From source (no bundle beside this file), every job runs in-process.
  assert.equal(creditJobWorkerScript({ root: demo, method: 'loo' }), undefined);
});
