import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runCreditJob, type CreditJobOptions, type CreditJobResult } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { CreditFreshness } from '../../../src/store/creditFreshness';
import { CreditRepository } from '../../../src/store/creditRepository';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

let demo = '';

before(async () => {
  demo = tempFolder();
  writeDemoRun(demo, { episodes: 1280 });
  await runIndexJob({ root: demo, search: false });
});

function agent(result: CreditJobResult, run: string, name: string) {
  const summary = result.runs.find((r) => r.run.name === run)?.agents.find((a) => a.agent === name);
  assert.ok(summary, `no summary for ${run}/${name}`);
  return summary;
}

test('credit loo on the demo: the idling verifier gets ~0 late while shared gives it full credit', async () => {
  const loo = await runCreditJob({ root: demo, method: 'loo', run: 'planner-solver-verifier' });
  const shared = await runCreditJob({ root: demo, method: 'shared', run: 'planner-solver-verifier' });
  const verifierLoo = agent(loo, 'planner-solver-verifier', 'verifier');
  assert.ok(verifierLoo.early >= 0.15, `early verifier loo ${verifierLoo.early}`);
  assert.ok(Math.abs(verifierLoo.late) <= 0.02, `late verifier loo ${verifierLoo.late}`);
  assert.ok(agent(shared, 'planner-solver-verifier', 'verifier').late >= 0.8);
  assert.ok(agent(loo, 'planner-solver-verifier', 'planner').late > 0.1);
  // Logged values only: the demo logs every counterfactual, so no evaluator call is made.
  assert.equal(loo.values.evaluated, 0);
  assert.equal(loo.runs.find((r) => r.run.name === 'planner-solver-verifier')?.failures.length, 0);
});

test('credit routing on the routed demo: the weaker, more-selected expert has negative contribution while wta rewards it', async () => {
  const stored: { method: string; agent: string; value: number }[] = [];
  const result = await runCreditJob(
    { root: demo, method: 'routing' },
    {
      onRunStored: (_run, rows) => {
        for (const r of rows) stored.push({ method: r.method, agent: r.agent, value: r.value ?? Number.NaN });
      },
    },
  );
  const mean = (method: string, name: string): number => {
    const values = stored.filter((r) => r.method === method && r.agent === name).map((r) => r.value);
    return values.reduce((a, b) => a + b, 0) / values.length;
  };
  assert.ok(mean('routing', 'fast') < 0, `fast routing ${mean('routing', 'fast')}`);
  assert.ok(mean('routing', 'careful') > 0, `careful routing ${mean('routing', 'careful')}`);
  assert.ok(mean('wta', 'fast') > mean('wta', 'careful'), 'wta ranks the weaker expert higher');
  const team = result.runs.find((r) => r.run.name === 'planner-solver-verifier');
  assert.ok(team && team.computed === 0 && team.failures.length > 0, 'a run without routing logs fails clearly');
  assert.match(team?.failures[0]?.reason ?? '', /router probabilities/);
});

test('credit shapley from logged coalitions is efficient per episode', async () => {
  const sums = new Map<string, number>();
  const rewards = new Map<string, number>();
  await runCreditJob(
    { root: demo, method: 'shapley', steps: [1, 4] },
    {
      onRunStored: (run, rows) => {
        if (run.run.name !== 'planner-solver-verifier') return;
        for (const r of rows) {
          sums.set(r.external_id, (sums.get(r.external_id) ?? 0) + (r.value ?? Number.NaN));
          rewards.set(r.external_id, r.outcome ?? Number.NaN);
        }
      },
    },
  );
  assert.ok(sums.size > 0);
  for (const [id, sum] of sums) assert.ok(Math.abs(sum - (rewards.get(id) ?? 0)) < 1e-9, `${id}: Σφ = ${sum}`);
});

test('credit with the built-in evaluator computes missing coalitions and caches them (second pass: 100% hits)', async () => {
  const root = tempFolder();
  const messages = [
    { agent: 'planner', content: 'Plan: add 2 and 2.' },
    { agent: 'solver', content: '2 + 2 = 4. #### 4' },
    { agent: 'verifier', content: 'Looks good. #### 4' },
  ];
  // Three successes and a failure (gold 5): the checker reproduces both outcomes, so it is calibrated.
  const lines = [0, 1, 2, 3].map((i) =>
    episode(`e${i}`, {
      agents: ['planner', 'solver', 'verifier'].map((name) => ({ name, kind: 'llm' as const })),
      messages,
      groundTruth: i === 3 ? '5' : '4',
      reward: i === 3 ? 0 : 1,
      group: 'g',
      step: 1,
      sample: i,
    }),
  );
  writeFileSync(join(root, 'a.jsonl'), jsonl(...lines));
  writeFileSync(
    join(root, 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', mechanism: 'pipeline' }),
  );
  await runIndexJob({ root, search: false });
  const options: CreditJobOptions = { root, method: 'shapley' };
  const first = await runCreditJob(options);
  assert.equal(first.runs[0]?.failures.length, 0);
  assert.ok(first.values.evaluated > 0);
  const second = await runCreditJob(options);
  assert.equal(second.values.evaluated, 0);
  assert.equal(second.values.cached, first.values.evaluated);
  const verifier = agent(second, first.runs[0]?.run.name ?? '', 'verifier');
  assert.ok(verifier.mean > 0, 'the last agent writes the final answer');
});

test('credit with a crashing or hanging evaluator command records per-episode errors and no partial rows', async () => {
  const root = tempFolder();
  const agents = ['planner', 'solver'].map((name) => ({ name, kind: 'llm' as const }));
  writeFileSync(
    join(root, 'a.jsonl'),
    jsonl(
      episode('ok-1', { agents }),
      episode('crash-1', { agents }),
      episode('hang-1', { agents }),
      episode('ok-2', { agents }),
    ),
  );
  await runIndexJob({ root, search: false });
  const script = `"${process.execPath}" "${resolve('test/fixtures/evaluators/misbehaving.js')}"`;
  // Calibration off (threshold 0): this test is about failures, not about agreement with the log.
  const result = await runCreditJob({
    root,
    method: 'shapley',
    concurrency: 1,
    // 3 s, not less: the good episodes' node processes must start within it on a loaded 2-core machine.
    evaluator: { kind: 'command', command: script, timeoutMs: 3000 },
    calibration: { threshold: 0 },
  });
  const run = result.runs[0];
  assert.equal(run?.computed, 2);
  assert.deepEqual(run?.failures.map((f) => f.where).sort(), ['a.jsonl:2', 'a.jsonl:3']);
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    const credited = store.db
      .prepare<{ external_id: string }>(
        "SELECT DISTINCT e.external_id FROM credit c JOIN episode e USING (episode_id) WHERE c.method = 'shapley' ORDER BY 1",
      )
      .all();
    assert.deepEqual(
      credited.map((r) => r.external_id),
      ['ok-1', 'ok-2'],
    );
    const errors = store.db.prepare<{ n: number }>('SELECT count(*) AS n FROM credit_error').get();
    assert.equal(errors?.n, 2);
  } finally {
    store.close();
  }
});

test('per-message credit: prefix differences find the first error; Owen sums per agent to the Shapley value', async () => {
  const root = tempFolder();
  const agents = ['planner', 'solver', 'verifier'].map((name) => ({ name, kind: 'llm' as const }));
  const messages = [
    { agent: 'planner', content: 'Plan: add the two numbers.' },
    { agent: 'solver', content: '2 + 2 = 4. #### 4' },
    { agent: 'verifier', content: 'Actually it is 5. #### 5' },
  ];
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('failed', { agents, messages, reward: 0, groundTruth: '4' })));
  writeFileSync(
    join(root, 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', mechanism: 'pipeline' }),
  );
  await runIndexJob({ root, search: false });
  const collect = async (method: CreditJobOptions['method']) => {
    const rows: { agent: string; seq: number | null; value: number }[] = [];
    let firstError: unknown;
    // One episode: calibration off (threshold 0), this test is about the per-message arithmetic.
    await runCreditJob(
      { root, method, calibration: { threshold: 0 } },
      {
        onRunStored: (_run, stored) => {
          for (const r of stored) rows.push({ agent: r.agent, seq: r.message_seq, value: r.value ?? Number.NaN });
        },
        onEpisode: (report) => {
          firstError = report.messages?.firstError;
        },
      },
    );
    return { rows, firstError };
  };
  const prefix = await collect('prefix');
  assert.deepEqual(
    prefix.rows.filter((r) => r.seq !== null).map((r) => r.value),
    [0, 1, -1],
  );
  assert.deepEqual(prefix.firstError, { index: 2, harmful: [2], repairs: [] });
  const owen = await collect('owen');
  const shapley = await collect('shapley');
  for (const name of ['planner', 'solver', 'verifier']) {
    const messageSum = owen.rows.filter((r) => r.agent === name && r.seq !== null).reduce((sum, r) => sum + r.value, 0);
    const phi = shapley.rows.find((r) => r.agent === name && r.seq === null)?.value ?? Number.NaN;
    assert.ok(Math.abs(messageSum - phi) < 1e-12, `${name}: Σ owen ${messageSum} vs φ ${phi}`);
  }
  assert.ok(
    Math.abs(owen.rows.filter((r) => r.seq !== null).reduce((s, r) => s + r.value, 0)) < 1e-12,
    'conserves v(N) − v(∅) = 0',
  );
});

test('shapley-mc on logged coalitions converges to exact Shapley within its intervals', async () => {
  const exact = new Map<string, number>();
  const mc: { key: string; value: number; low: number; high: number }[] = [];
  await runCreditJob(
    { root: demo, method: 'shapley', run: 'planner-solver-verifier', steps: [1, 2] },
    {
      onRunStored: (_r, rows) => {
        for (const r of rows) exact.set(`${r.external_id}/${r.agent}`, r.value ?? Number.NaN);
      },
    },
  );
  await runCreditJob(
    { root: demo, method: 'shapley-mc', run: 'planner-solver-verifier', steps: [1, 2] },
    {
      onRunStored: (_r, rows) => {
        for (const r of rows)
          mc.push({
            key: `${r.external_id}/${r.agent}`,
            value: r.value ?? Number.NaN,
            low: r.ci_low ?? r.value ?? 0,
            high: r.ci_high ?? r.value ?? 0,
          });
      },
    },
  );
  assert.equal(mc.length, exact.size);
  const covered = mc.filter(
    (m) =>
      Math.abs(m.value - (exact.get(m.key) ?? Number.NaN)) < 1e-9 ||
      (m.low - 1e-9 <= (exact.get(m.key) ?? 0) && (exact.get(m.key) ?? 0) <= m.high + 1e-9),
  );
  assert.ok(covered.length / mc.length >= 0.9, `${covered.length}/${mc.length} intervals cover the exact value`);
});

test('budgeted loo: the control-variate estimate covers the exact run mean while evaluating a fraction of episodes', async () => {
  const exact = await runCreditJob({
    root: demo,
    method: 'loo',
    run: 'planner-solver-verifier',
    useLogged: false,
    evaluator: { kind: 'builtin', name: 'final-answer' },
  });
  const budgeted = await runCreditJob({
    root: demo,
    method: 'loo',
    run: 'planner-solver-verifier',
    useLogged: false,
    budget: 1600,
    evaluator: { kind: 'builtin', name: 'final-answer', options: { foldCase: true } },
  });
  const report = budgeted.runs[0]?.budget;
  assert.ok(report, 'a budget report');
  assert.ok(
    report.exactEpisodes < report.totalEpisodes / 2,
    `${report.exactEpisodes} exact of ${report.totalEpisodes}`,
  );
  for (const estimate of report.agents) {
    const truth = agent(exact, 'planner-solver-verifier', estimate.agent).mean;
    assert.ok(
      Math.abs(estimate.estimate - truth) <= 4 * estimate.stderr + 1e-9,
      `${estimate.agent}: ${estimate.estimate} ± ${estimate.stderr} vs ${truth}`,
    );
  }
});

test("only-missing credit: a first pass neither reads the run's ids nor reuses; a second reuses every episode; a partial one recomputes only the missing", async (t) => {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 200 });
  await runIndexJob({ root, search: false });
  const walks = t.mock.method(CreditFreshness.prototype, 'missingEpisodes');
  const asks = t.mock.method(CreditRepository.prototype, 'hasParams');
  const pass = (): Promise<CreditJobResult> =>
    runCreditJob({ root, method: 'loo', run: 'planner-solver-verifier', onlyMissing: true, jobWorkerScript: false });
  const run = (result: CreditJobResult) => result.runs.find((r) => r.run.name === 'planner-solver-verifier');
  const first = run(await pass());
  assert.equal(walks.mock.callCount(), 0, 'nothing of the set stored: no walk of the ids');
  assert.equal(asks.mock.callCount(), 1, 'the pass asks once whether the set is stored');
  assert.equal(first?.reused, 0);
  const total = first?.computed ?? 0;
  assert.ok(total > 0);
  const second = run(await pass());
  assert.equal(walks.mock.callCount(), 1, 'stored credit: the ids are read');
  assert.deepEqual([second?.computed, second?.reused], [0, total]);
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    store.db
      .prepare(
        `DELETE FROM credit WHERE method = 'loo' AND episode_id IN (SELECT episode_id FROM episode
           WHERE run_id = (SELECT run_id FROM run WHERE name = 'planner-solver-verifier') ORDER BY episode_id LIMIT 10)`,
      )
      .run();
  } finally {
    store.close();
  }
  const partial = run(await pass());
  assert.deepEqual([partial?.computed, partial?.reused], [10, total - 10]);
});
