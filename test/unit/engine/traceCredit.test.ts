import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import type { Counterfactual } from '../../../src/core/episode';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runCreditJob } from '../../../src/engine/credit/creditJob';
import type { AgentSummary, StepCell } from '../../../src/engine/credit/creditSummary';
import { runIndexJob } from '../../../src/engine/indexJob';
import type { TraceCreditMethod } from '../../../src/engine/traceCredit/traceCreditChoice';
import { traceCreditTable, type TraceCreditResult } from '../../../src/engine/traceCredit/traceCreditJob';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

// `credit-lens table`: credit straight from the traces must be what `index` + `credit` stores,
// agent by agent and step by step, on the demo and on producers' own files; in this thread and in
// the bundled workers (dist/traceCreditWorker.js, built by `npm test` before the tests).
const creditWorker = resolve('dist/traceCreditWorker.js');
const parseWorker = resolve('dist/parseWorker.js');
const indexWorker = resolve('dist/indexWorker.js');
const everything = { split: 'train', steps: [-Infinity, Infinity] } as const;

let demo = '';

before(() => {
  assert.ok(existsSync(creditWorker), 'dist/traceCreditWorker.js missing: run `node esbuild.mjs` first');
  demo = tempFolder();
  writeDemoRun(demo, { episodes: 640 });
});

/** The index path: a cold index, then `credit --method`, with its per-agent summaries and per-(step, agent) means. */
async function viaIndex(root: string, method: TraceCreditMethod, run?: string) {
  const dbPath = join(tempFolder(), 'index.sqlite');
  await runIndexJob({ root, dbPath, search: false });
  const sums = new Map<string, { agent: string; step: number; n: number; sum: number }>();
  const result = await runCreditJob(
    // Logged values only, as the table: no checker fills in what the trace does not log.
    { root, dbPath, method, evaluator: { kind: 'none' }, ...(run ? { run } : {}) },
    {
      onEpisode: ({ episode: e, rows }) => {
        for (const row of rows.get(method) ?? []) {
          if (row.messageSeq !== null) continue;
          const agent = e.agents.find((a) => a.agentId === row.agentId)?.name ?? '';
          const key = `${e.runId}/${e.step ?? 0}/${agent}`;
          const s = sums.get(key) ?? { agent, step: e.step ?? 0, n: 0, sum: 0 };
          s.n++;
          s.sum += row.value;
          sums.set(key, s);
        }
      },
    },
  );
  return { result, sums };
}

function near(actual: number, expected: number, what: string): void {
  if (Number.isNaN(expected)) return assert.ok(Number.isNaN(actual), `${what}: ${actual} is not NaN`);
  assert.ok(Math.abs(actual - expected) <= 1e-9, `${what}: ${actual} vs ${expected}`);
}

function sameAgents(actual: readonly AgentSummary[], expected: readonly AgentSummary[], what: string): void {
  assert.deepEqual(actual.map((a) => a.agent).sort(), expected.map((a) => a.agent).sort(), `${what}: agents`);
  for (const e of expected) {
    const a = actual.find((x) => x.agent === e.agent);
    assert.ok(a);
    assert.equal(a.episodes, e.episodes, `${what} ${e.agent}: episodes`);
    assert.deepEqual(a.status, e.status, `${what} ${e.agent}: status`);
    near(a.mean, e.mean, `${what} ${e.agent}: mean`);
    near(a.early, e.early, `${what} ${e.agent}: early`);
    near(a.late, e.late, `${what} ${e.agent}: late`);
  }
}

async function assertSameAsIndex(root: string, method: TraceCreditMethod, table: TraceCreditResult): Promise<void> {
  const { result, sums } = await viaIndex(root, method);
  const computed = result.runs.filter((r) => r.computed > 0 || r.failures.length > 0);
  assert.equal(table.runs.length, computed.length, `${method}: runs`);
  for (const run of computed) {
    const mine = table.runs.find((r) => r.name === run.run.name);
    assert.ok(mine, `${method}: run ${run.run.name} missing`);
    assert.equal(mine.computed, run.computed, `${run.run.name}: computed`);
    assert.equal(mine.notIdentifiable, run.unidentified, `${run.run.name}: not identifiable`);
    assert.equal(mine.failed, run.failures.length - run.unidentified, `${run.run.name}: failed`);
    sameAgents(mine.agents, run.agents, `${method} ${run.run.name}`);
    const expected = [...sums.entries()].filter(([key]) => key.startsWith(`${run.run.runId}/`)).map(([, s]) => s);
    assert.equal(mine.steps.length, expected.length, `${run.run.name}: (step, agent) cells`);
    for (const s of expected) {
      const cell: StepCell | undefined = mine.steps.find((c) => c.step === s.step && c.agent === s.agent);
      assert.ok(cell, `no cell for step ${s.step} ${s.agent}`);
      assert.equal(cell.n, s.n);
      near(cell.mean, s.sum / s.n, `step ${s.step} ${s.agent}`);
    }
  }
}

for (const method of ['loo', 'shapley', 'shared'] as const) {
  test(`table ${method} on the demo equals index + credit, cell for cell, in workers and in this thread`, async () => {
    const inWorkers = await traceCreditTable({ root: demo, method, ...everything, parseWorkerScript: creditWorker });
    await assertSameAsIndex(demo, method, inWorkers);
    const inThread = await traceCreditTable({ root: demo, method, ...everything });
    assert.deepEqual(inThread.runs, inWorkers.runs);
    const oneCreditWorker = await traceCreditTable({
      root: demo,
      method,
      ...everything,
      parseWorkerScript: creditWorker,
      parseWorkers: 1,
    });
    assert.deepEqual(oneCreditWorker.runs, inWorkers.runs, 'a one-core machine: a pool of one credit worker');
    const oneParseWorker = await traceCreditTable({
      root: demo,
      method,
      ...everything,
      parseWorkerScript: parseWorker,
      parseWorkers: 1,
    });
    assert.deepEqual(oneParseWorker.runs, inWorkers.runs);
    let progressed = 0;
    const inJobWorker = await traceCreditTable({
      root: demo,
      method,
      ...everything,
      parseWorkerScript: creditWorker,
      jobWorkerScript: indexWorker,
      onProgress: () => progressed++,
    });
    assert.deepEqual(inJobWorker.runs, inWorkers.runs, 'the pass in its own worker (the CLI and the extension)');
    assert.equal(inJobWorker.pass.linesRead, inWorkers.pass.linesRead);
    assert.ok(progressed > 0, 'its progress reaches the caller');
  });
}

test('table in its worker: cancelled by the caller, it stops and says so; a missing folder is an error naming it', async () => {
  const cancelled = await traceCreditTable({
    root: demo,
    method: 'loo',
    ...everything,
    parseWorkerScript: creditWorker,
    jobWorkerScript: indexWorker,
    isCancelled: () => true,
  });
  const whole = await traceCreditTable({ root: demo, method: 'loo', ...everything, parseWorkerScript: creditWorker });
  const episodes = (r: TraceCreditResult): number => r.runs.reduce((sum, run) => sum + run.episodes, 0);
  assert.ok(episodes(cancelled) < episodes(whole), `${episodes(cancelled)} of ${episodes(whole)} episodes read`);
  assert.equal(cancelled.pass.cancelled, true);
  const gone = join(tempFolder(), 'gone');
  await assert.rejects(
    traceCreditTable({ root: gone, method: 'loo', ...everything, jobWorkerScript: indexWorker }),
    (error: Error) => error.message.includes('gone'),
  );
});

test('table on the demo: the verifier idles late under loo, and only logged values are read', async () => {
  const table = await traceCreditTable({ root: demo, method: 'loo', ...everything, parseWorkerScript: creditWorker });
  const run = table.runs.find((r) => r.name === 'planner-solver-verifier');
  const verifier = run?.agents.find((a) => a.agent === 'verifier');
  assert.ok(run && verifier);
  assert.ok(verifier.early >= 0.15 && Math.abs(verifier.late) <= 0.02, `verifier ${verifier.early} → ${verifier.late}`);
  assert.deepEqual(Object.keys(run.sources), ['logged']);
  assert.equal(table.values.evaluated, 0);
  assert.ok(table.values.logged > 0);
});

test("table --run reads only that run's files, and its table is the one of the whole pass", async () => {
  const all = await traceCreditTable({ root: demo, method: 'loo', ...everything, parseWorkerScript: creditWorker });
  const run = 'planner-solver-verifier';
  const one = await traceCreditTable({
    root: demo,
    method: 'loo',
    ...everything,
    run,
    parseWorkerScript: creditWorker,
  });
  assert.deepEqual(
    one.runs.map((r) => r.name),
    [run],
  );
  assert.deepEqual(
    one.runs[0],
    all.runs.find((r) => r.name === run),
  );
  assert.ok(one.pass.filesTotal > 0 && one.pass.filesTotal < all.pass.filesTotal, "the other runs' files are not read");
  assert.ok(one.pass.bytesTotal < all.pass.bytesTotal);
  assert.equal(one.pass.linesRead, one.runs[0]?.episodes, 'only its lines were parsed');
});

// Producers' own files (each folder holds the script that wrote it, with the producer's commit).
const producers = [
  ['C3 (counterfactual rollouts)', 'test/fixtures/importers/c3/run'],
  ['TRL rolling-buffer Parquet dumps (a re-dump of 48 repeats)', 'test/fixtures/importers/trl/grpo-parquet'],
  ['verl rollout dumps', 'test/fixtures/importers/verl'],
] as const;

for (const [name, folder] of producers)
  for (const method of ['shared', 'loo'] as const)
    test(`table ${method} on ${name} equals index + credit (including what is not identifiable)`, async () => {
      const table = await traceCreditTable({
        root: resolve(folder),
        method,
        ...everything,
        parseWorkerScript: creditWorker,
      });
      assert.ok(
        table.runs.some((r) => r.episodes > 0),
        `${folder}: no episode read`,
      );
      if (folder.endsWith('grpo-parquet')) assert.equal(table.pass.repeatsSkipped, 48);
      await assertSameAsIndex(resolve(folder), method, table);
    });

test('table: bad lines are issues with file and line, duplicates keep the first file, and both workers agree', async () => {
  const root = tempFolder();
  mkdirSync(join(root, 'rollouts'));
  const cf = (without: number): Counterfactual[] => [
    { intervention: 'remove', agents: ['planner'], reward: without },
    { intervention: 'remove', agents: ['solver'], reward: 0 },
  ];
  // a.jsonl (worker 0) and b.jsonl (worker 1) both log "dup": the index keeps a.jsonl's, so must the table.
  writeFileSync(
    join(root, 'rollouts', 'a.jsonl'),
    jsonl(episode('dup', { step: 1, counterfactuals: cf(0.25) }), episode('a2', { step: 1, counterfactuals: cf(1) })) +
      '{"id": broken\n' +
      jsonl(episode('a3', { step: 2, counterfactuals: cf(0.5) })),
  );
  writeFileSync(join(root, 'rollouts', 'b.jsonl'), jsonl(episode('dup', { step: 1, counterfactuals: cf(1) })));
  const table = await traceCreditTable({ root, method: 'loo', ...everything, parseWorkerScript: creditWorker });
  const planner = table.runs[0]?.agents.find((a) => a.agent === 'planner');
  assert.equal(planner?.episodes, 3);
  near(planner?.mean ?? Number.NaN, (0.75 + 0 + 0.5) / 3, 'planner mean, a.jsonl\'s "dup"');
  assert.equal(table.pass.issues, 2);
  assert.deepEqual(
    table.issues.map((i) => [i.uri, i.line]),
    [
      ['rollouts/a.jsonl', 3],
      ['rollouts/b.jsonl', 1],
    ],
  );
  assert.equal(table.issues[1]?.reason, 'duplicate episode id "dup" (first seen at rollouts/a.jsonl:1); line skipped');
  await assertSameAsIndex(root, 'loo', table);
});

test('table: what the logged values cannot answer is counted with its remedy, never a number', async () => {
  const root = tempFolder();
  writeFileSync(
    join(root, 'a.jsonl'),
    jsonl(
      episode('logged', {
        counterfactuals: [
          { intervention: 'remove', agents: ['planner'], reward: 0 },
          { intervention: 'remove', agents: ['solver'], reward: 0 },
        ],
      }),
      episode('bare'),
      episode('held-out', { split: 'validation' }),
    ),
  );
  const table = await traceCreditTable({ root, method: 'loo', ...everything, parseWorkerScript: creditWorker });
  const run = table.runs[0];
  assert.ok(run);
  assert.equal(run.computed, 1);
  assert.equal(run.notIdentifiable, 1);
  assert.equal(run.outside, 1, 'the validation episode is left out of the training table');
  assert.equal(run.problems[0]?.where, 'a.jsonl:2');
  assert.match(run.reasons[0]?.remedy ?? '', /log counterfactual rewards|replay/);
  assert.deepEqual(
    run.agents.map((a) => [a.agent, a.episodes]),
    [
      ['planner', 1],
      ['solver', 1],
    ],
  );
  await assertSameAsIndex(root, 'loo', table);
});
