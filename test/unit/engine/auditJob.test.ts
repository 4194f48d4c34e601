import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunAudit } from '../../../src/core/auditReport';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runAudit } from '../../../src/engine/audit/auditJob';
import { runCreditJob } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

async function demo(freeRider: boolean): Promise<string> {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 1280, freeRider, routed: false });
  await runIndexJob({ root, search: false });
  return root;
}

function team(runs: readonly RunAudit[]): RunAudit {
  const run = runs.find((r) => r.run === 'planner-solver-verifier');
  assert.ok(run);
  return run;
}

test('audit on the demo flags the verifier as free-rider over the late steps and as decoupling', async () => {
  const report = team((await runAudit({ root: await demo(true) })).runs);
  const freeRider = report.flags.filter((f) => f.kind === 'free-rider');
  assert.deepEqual(
    freeRider.map((f) => f.agent),
    ['verifier'],
    JSON.stringify(report.flags.map((f) => [f.kind, f.agent, f.steps])),
  );
  const [from, to] = freeRider[0]?.steps ?? [0, 0];
  assert.ok(from >= 17 && from <= 33 && to === 40, `free-rider over ${from}–${to}`);
  const decoupling = report.flags.filter((f) => f.kind === 'decoupling');
  assert.deepEqual(
    decoupling.map((f) => f.agent),
    ['verifier'],
  );
  assert.ok(
    report.flags.every((f) => f.agent === 'verifier'),
    'planner and solver are not flagged',
  );
  assert.ok(freeRider[0]?.location?.uri.startsWith('planner-solver-verifier/rollouts/'));
  const verifier = report.agents.find((a) => a.agent === 'verifier');
  assert.ok((verifier?.emptyRate ?? 0) > 0.3, 'the idle verifier writes content-free echoes');
  const late = report.trends.filter((t) => t.step >= 35);
  assert.ok(late.every((t) => (t.agents['verifier']?.creditShare ?? 1) < 0.05));
});

test('audit on a control run where every agent contributes flags nothing', async () => {
  const report = team((await runAudit({ root: await demo(false) })).runs);
  assert.deepEqual(
    report.flags.map((f) => [f.kind, f.agent, f.steps]),
    [],
  );
  assert.deepEqual(report.unreachable, []);
});

test('audit without counterfactual data still flags silent agents and says which verdicts were not reached', async () => {
  const root = tempFolder();
  const agents = ['writer', 'critic', 'ghost'].map((name) => ({ name, kind: 'llm' as const }));
  const messages = [
    { agent: 'writer', content: 'Draft answer: 42' },
    { agent: 'critic', content: 'Looks good.' },
  ];
  // No ground truth: the built-in evaluator cannot score coalitions, and nothing is logged.
  const lines = Array.from({ length: 6 }, (_, i) =>
    episode(`e${i}`, { agents, messages, final: { answer: '42' }, step: 1 + (i % 3) }),
  );
  writeFileSync(join(root, 'a.jsonl'), jsonl(...lines));
  await runIndexJob({ root, search: false });
  const [report] = (await runAudit({ root })).runs;
  assert.deepEqual(
    report?.flags.map((f) => [f.kind, f.agent, f.scope]),
    [['silent', 'ghost', 'run']],
  );
  // One note per trained agent, naming it and why: the checker cannot score episodes without a ground truth.
  assert.deepEqual(
    report?.unreachable.map((u) => /for (\w+):/.exec(u)?.[1]),
    ['writer', 'critic', 'ghost'],
  );
  for (const note of report?.unreachable ?? [])
    assert.match(note, /no loo credit could be computed: .*no ground truth.*what would answer it: log counterfactual/);
});

test('a cancelled audit stores no flags and keeps the previous ones', async () => {
  const root = await demo(true);
  const first = await runAudit({ root, readText: false });
  const flagged = team(first.runs).flags.length;
  assert.ok(flagged > 0);
  const cancelled = await runAudit({ root, readText: false, isCancelled: () => true });
  assert.equal(cancelled.cancelled, true);
  assert.deepEqual(cancelled.runs, []);
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    assert.equal(store.db.prepare<{ n: number }>('SELECT count(*) AS n FROM flag').get()?.n, flagged);
  } finally {
    store.close();
  }
});

function withIndex<T>(root: string, fn: (db: IndexStore['db']) => T): T {
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    return fn(store.db);
  } finally {
    store.close();
  }
}

const loo = "method = 'loo' AND message_seq IS NULL";
/** Credit rows of the LOO pass and the latest time one was written. */
const creditWrites = (root: string) =>
  withIndex(root, (db) =>
    db
      .prepare<{ n: number; at: string }>(`SELECT count(*) AS n, max(computed_at) AS at FROM credit WHERE ${loo}`)
      .get(),
  );

test('audit reads the credit a credit pass stored (no credit is written) and gives the report it computes itself', async () => {
  const computing = team((await runAudit({ root: await demo(true), readText: false })).runs);
  const root = await demo(true);
  await runCreditJob({ root, method: 'loo' });
  const before = creditWrites(root);
  await new Promise((resolve) => setTimeout(resolve, 5)); // a rewrite would carry a later computed_at
  const reading = team((await runAudit({ root, readText: false })).runs);
  assert.deepEqual(creditWrites(root), before, 'no credit row was deleted, added or rewritten');
  assert.deepEqual(reading, computing);
  assert.ok(reading.flags.some((f) => f.kind === 'free-rider' && f.agent === 'verifier'));
});

test('audit uses stored credit as it is, and recomputes when the parameters differ', async () => {
  const root = await demo(true);
  const truth = team((await runAudit({ root, readText: false })).runs);
  // Make the stored credit distinguishable: every verifier value 0.25.
  withIndex(root, (db) =>
    db
      .prepare(
        `UPDATE credit SET value = 0.25 WHERE ${loo} AND agent_id IN (SELECT agent_id FROM agent WHERE name = 'verifier')`,
      )
      .run(),
  );
  const stored = team((await runAudit({ root, readText: false })).runs);
  assert.equal(stored.agents.find((a) => a.agent === 'verifier')?.meanCredit, 0.25);
  assert.ok(!stored.flags.some((f) => f.kind === 'free-rider'), 'a verifier worth 0.25 everywhere is no free-rider');
  // No evaluator: other parameters (another params hash), so the logged values are computed again.
  const recomputed = team((await runAudit({ root, readText: false, evaluator: { kind: 'none' } })).runs);
  const verifier = (r: RunAudit) => r.agents.find((a) => a.agent === 'verifier')?.meanCredit;
  assert.notEqual(verifier(recomputed), 0.25);
  assert.equal(verifier(recomputed), verifier(truth));
  assert.deepEqual(
    recomputed.flags.map((f) => [f.kind, f.agent, f.steps]),
    truth.flags.map((f) => [f.kind, f.agent, f.steps]),
  );
});

test('audit computes only the episodes whose credit is missing, and the report is the whole one', async () => {
  const root = await demo(true);
  const whole = team((await runAudit({ root, readText: false })).runs);
  const [kept, dropped] = withIndex(root, (db) => {
    const ids = 'SELECT episode_id FROM episode ORDER BY episode_id LIMIT 100 OFFSET 300';
    const stamp = db
      .prepare<{ at: string }>(`SELECT max(computed_at) AS at FROM credit WHERE ${loo} AND episode_id NOT IN (${ids})`)
      .get();
    const count = (): number =>
      db.prepare<{ n: number }>(`SELECT count(*) AS n FROM credit WHERE ${loo} AND episode_id IN (${ids})`).get()?.n ??
      0;
    const before = count();
    db.prepare(`DELETE FROM credit WHERE ${loo} AND episode_id IN (${ids})`).run(); // through the view's trigger
    return [stamp?.at, before - count()] as const;
  });
  assert.ok(dropped > 0);
  const partial = team((await runAudit({ root, readText: false })).runs);
  assert.deepEqual(partial, whole);
  withIndex(root, (db) => {
    const rows = (where: string) =>
      db
        .prepare<{ n: number; at: string }>(
          `SELECT count(*) AS n, max(computed_at) AS at FROM credit WHERE ${loo} AND ${where}`,
        )
        .get();
    const ids = 'episode_id IN (SELECT episode_id FROM episode ORDER BY episode_id LIMIT 100 OFFSET 300)';
    assert.equal(rows(ids)?.n, dropped, 'the dropped episodes were computed again');
    assert.equal(rows(`NOT ${ids}`)?.at, kept, 'the others were left as they were');
  });
});
