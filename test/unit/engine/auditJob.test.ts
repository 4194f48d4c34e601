import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunAudit } from '../../../src/core/auditReport';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runAudit } from '../../../src/engine/audit/auditJob';
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
