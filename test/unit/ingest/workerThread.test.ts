import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { SideSearchWorkerData } from '../../../src/engine/indexWorkerSearch';
import type { ParseRequest } from '../../../src/ingest/parseLines';
import type { ParseWorkerData, ParseWorkerMessage } from '../../../src/ingest/parseWorkerProtocol';
import { canonicalFormat } from '../../../src/ingest/importers/canonicalMapper';
import {
  endWorker,
  outOfMemoryError,
  runWorkerJob,
  startWorker,
  workerYoungGenerationMb,
} from '../../../src/ingest/workerThread';
import { episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';

// A worker asked to end must end on its own (exit code 0), not be terminated (exit code 1): on
// Node 20 a termination during V8's background compilation aborts the whole process.

function exitCode(worker: Worker): Promise<number> {
  return new Promise((resolve) => worker.once('exit', resolve));
}

function parseWorkerData(job?: unknown): ParseWorkerData {
  return { flags: new SharedArrayBuffer(8), maxInFlight: 4, maxTextsInFlight: 2, ...(job ? { job } : {}) };
}

/** Runs one file through a bundled parse-worker script, acknowledging each batch, until `done`. */
async function parseOneFile(worker: Worker, data: ParseWorkerData): Promise<number> {
  const root = tempFolder();
  const path = join(root, 'a.jsonl');
  writeFileSync(path, jsonl(...episodes(0, 50)));
  const request: ParseRequest = {
    uri: path,
    path,
    format: canonicalFormat,
    start: { offset: 0, line: 0 },
    roster: [],
    batchSize: 10,
  };
  const flags = new Int32Array(data.flags);
  let batches = 0;
  await new Promise<void>((done, fail) => {
    worker.on('message', (message: ParseWorkerMessage) => {
      if (message.kind === 'batch') {
        batches++;
        Atomics.sub(flags, 1, 1);
        Atomics.notify(flags, 1);
      } else if (message.kind === 'done') done();
      else if (message.kind === 'failed') fail(new Error(message.message));
    });
    worker.postMessage([request]);
  });
  return batches;
}

for (const [script, job] of [
  ['dist/parseWorker.js', undefined],
  ['dist/traceCreditWorker.js', { method: 'loo', split: 'train', steps: [0, Number.MAX_SAFE_INTEGER] }],
] as const) {
  test(`${script}, asked to end after a pass, ends on its own`, async () => {
    assert.ok(existsSync(script), `${script} missing: run \`node esbuild.mjs\` first`);
    const data = parseWorkerData(job);
    const worker = new Worker(resolve(script), { workerData: data });
    const code = exitCode(worker);
    assert.ok((await parseOneFile(worker, data)) >= 5, 'the pass sent its batches');
    await endWorker(worker, 10_000);
    assert.equal(await code, 0);
  });
}

test('the side full-text index thread, asked to end before `finish`, ends on its own', async () => {
  const { port2 } = new MessageChannel();
  const data: SideSearchWorkerData = {
    role: 'side-search',
    sidePath: join(tempFolder(), 'side.sqlite'),
    port: port2,
    flags: new SharedArrayBuffer(4),
    open: {},
  };
  const worker = new Worker(resolve('dist/indexWorker.js'), { workerData: data, transferList: [port2] });
  const code = exitCode(worker);
  await new Promise((ready) => worker.once('online', ready));
  await endWorker(worker, 10_000);
  assert.equal(await code, 0);
});

test('endWorker terminates a thread that ignores the request once the grace period is over', async () => {
  const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
  const code = exitCode(worker);
  await new Promise((ready) => worker.once('online', ready));
  const started = Date.now();
  await endWorker(worker, 200);
  assert.equal(await code, 1);
  assert.ok(Date.now() - started >= 150, 'waited for the grace period first');
  await endWorker(worker, 200); // a thread already ended: resolves at once
});

test('startWorker caps the young generation of a worker, unless the caller sets its own limits', async () => {
  const limitsOf = async (options: { resourceLimits?: { maxYoungGenerationSizeMb: number } }) => {
    const worker = startWorker(
      "require('node:worker_threads').parentPort.postMessage(require('node:worker_threads').resourceLimits)",
      { eval: true, ...options },
    );
    const limits = await new Promise<{ maxYoungGenerationSizeMb: number }>((got) => worker.once('message', got));
    await endWorker(worker);
    return limits.maxYoungGenerationSizeMb;
  };
  assert.equal(await limitsOf({}), workerYoungGenerationMb);
  assert.equal(await limitsOf({ resourceLimits: { maxYoungGenerationSizeMb: 4 } }), 4);
});

test('a worker that runs out of its bounded heap: its host says so, with the bound and what is kept', async () => {
  const limits = { maxOldGenerationSizeMb: 16 };
  const worker = startWorker('const held = []; for (;;) held.push(new Array(1e4).fill(held.length));', {
    eval: true,
    resourceLimits: limits,
  });
  const error = await new Promise<Error & { code?: string }>((got) => worker.once('error', got));
  await endWorker(worker);
  assert.equal(error.code, 'ERR_WORKER_OUT_OF_MEMORY');
  const reported = outOfMemoryError(error, 'the audit', limits, 'the flags stand');
  assert.match(reported.message, /^the audit ran out of its 16 MB heap \(.+\); the flags stand$/);
  const other = new Error('disk full');
  assert.equal(outOfMemoryError(other, 'the audit', limits, 'kept'), other, 'any other error as it is');
});

/** A job worker's script (plain JavaScript, as the built worker is), written to a temporary file. */
function jobScript(body: string): string {
  const path = join(tempFolder(), 'job.js');
  writeFileSync(
    path,
    `const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (m) => { if (m && m.kind === 'exit') parentPort.close(); });
${body}`,
  );
  return path;
}

type JobMessage = { kind: 'progress'; done: number } | { kind: 'done'; sum: number } | { kind: 'failed'; why: string };

function sumJob(body: string, seen: number[] = []) {
  return {
    script: jobScript(body),
    workerData: { numbers: [1, 2, 3] },
    limits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    job: 'the test job',
    kept: 'nothing is lost',
    answer: (message: JobMessage) => {
      if (message.kind === 'progress') {
        seen.push(message.done);
        return undefined;
      }
      return message.kind === 'done' ? { result: message.sum } : new Error(message.why);
    },
  };
}

test('runWorkerJob: the worker gets its data, messages on the way reach the host, the answer resolves', async () => {
  const seen: number[] = [];
  const sum = await runWorkerJob(
    sumJob(
      `let sum = 0;
workerData.numbers.forEach((n, i) => { sum += n; parentPort.postMessage({ kind: 'progress', done: i + 1 }); });
parentPort.postMessage({ kind: 'done', sum });`,
      seen,
    ),
  );
  assert.equal(sum, 6, 'the worker received its data and its answer came back');
  assert.deepEqual(seen, [1, 2, 3]);
});

test("runWorkerJob: a job's failure, its thread's early end and its heap's end each reject, naming the job", async () => {
  await assert.rejects(runWorkerJob(sumJob(`parentPort.postMessage({ kind: 'failed', why: 'no such run' });`)), {
    message: 'no such run',
  });
  await assert.rejects(runWorkerJob(sumJob('process.exit(3);')), {
    message: "the test job's worker exited (code 3) before it ended",
  });
  await assert.rejects(runWorkerJob(sumJob('const held = []; for (;;) held.push(new Array(1e4).fill(held.length));')), {
    message: /^the test job ran out of its 16 MB heap \(.+\); nothing is lost$/,
  });
});

// V8's own answer, asked inside the isolate: does it compile optimized code on a background thread?
const backgroundCompilerProbe = `require('node:v8').setFlagsFromString('--allow-natives-syntax');
require('node:worker_threads').parentPort.postMessage(require('node:vm').runInThisContext('%IsConcurrentRecompilationSupported()'));`;

test('workers from startWorker compile on their own thread; the host and workers started elsewhere keep the background compiler', async () => {
  const answer = (worker: Worker) => new Promise<boolean>((got) => worker.once('message', got));
  const ours = [
    startWorker(backgroundCompilerProbe, { eval: true }),
    startWorker(backgroundCompilerProbe, { eval: true }),
  ];
  const answers = await Promise.all(ours.map(answer));
  assert.deepEqual(answers, [false, false], 'a worker of ours has no background compiler (nodejs/node#54918)');
  const other = new Worker(backgroundCompilerProbe, { eval: true });
  assert.equal(await answer(other), true, 'the flag is back on once our workers are online');
  await Promise.all([...ours, other].map((w) => endWorker(w)));
  setFlagsFromString('--allow-natives-syntax');
  assert.equal(runInThisContext('%IsConcurrentRecompilationSupported()'), true, 'the host isolate is untouched');
});
