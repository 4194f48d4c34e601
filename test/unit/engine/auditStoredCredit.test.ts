import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunAudit } from '../../../src/core/auditReport';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runAudit } from '../../../src/engine/audit/auditJob';
import { runCreditJob } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';

async function demo(): Promise<string> {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 1280, freeRider: true, routed: false });
  await runIndexJob({ root, search: false });
  return root;
}

function team(runs: readonly RunAudit[]): RunAudit {
  const run = runs.find((r) => r.run === 'planner-solver-verifier');
  assert.ok(run);
  return run;
}

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
  const computing = team((await runAudit({ root: await demo(), readText: false })).runs);
  const root = await demo();
  await runCreditJob({ root, method: 'loo' });
  const before = creditWrites(root);
  await new Promise((resolve) => setTimeout(resolve, 5)); // a rewrite would carry a later computed_at
  const reading = team((await runAudit({ root, readText: false })).runs);
  assert.deepEqual(creditWrites(root), before, 'no credit row was deleted, added or rewritten');
  assert.deepEqual(reading, computing);
  assert.ok(reading.flags.some((f) => f.kind === 'free-rider' && f.agent === 'verifier'));
});

test('audit uses stored credit as it is, and recomputes when the parameters differ', async () => {
  const root = await demo();
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
  const root = await demo();
  const whole = team((await runAudit({ root, readText: false })).runs);
  const [kept, dropped] = withIndex(root, (db) => {
    const ids = 'SELECT episode_id FROM episode ORDER BY episode_id LIMIT 100 OFFSET 300';
    const stamp = db
      .prepare<{ at: string }>(`SELECT max(computed_at) AS at FROM credit WHERE ${loo} AND episode_id NOT IN (${ids})`)
      .get();
    const removed = db.prepare(`DELETE FROM credit WHERE ${loo} AND episode_id IN (${ids})`).run().changes;
    return [stamp?.at, removed] as const;
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
