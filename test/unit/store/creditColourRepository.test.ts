import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CreditColourRepository } from '../../../src/store/creditColourRepository';
import { creditDomain } from '../../../src/engine/views/creditDomain';
import { viewFixture, type ViewFixture } from '../engine/views/viewFixture';

let f: ViewFixture;
let repo: CreditColourRepository;

before(async () => {
  f = await viewFixture();
  repo = new CreditColourRepository(f.store.db);
});

after(() => f.store.close());

test("rewardSpan is the run's logged reward range (episodes without a reward skipped); null without any", () => {
  assert.deepEqual(repo.rewardSpan(f.teamRunId), { min: 0, max: 1 }, 't-none logs none');
  assert.deepEqual(repo.rewardSpan(f.soloRunId), { min: 1, max: 1 });
  assert.equal(repo.rewardSpan(999), null);
  const db = f.store.db;
  const [row] = db.prepare<{ outcome: number }>('SELECT outcome FROM episode WHERE run_id = ?').all(f.soloRunId);
  db.prepare('UPDATE episode SET outcome = NULL WHERE run_id = ?').run(f.soloRunId);
  try {
    assert.equal(repo.rewardSpan(f.soloRunId), null, 'a run without a logged reward');
  } finally {
    db.prepare('UPDATE episode SET outcome = ? WHERE run_id = ?').run(row?.outcome ?? null, f.soloRunId);
  }
});

test('rewardSpan seeks the outcome index instead of reading the run', () => {
  for (const fn of ['min', 'max']) {
    const plan = f.store.db
      .prepare<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT ${fn}(outcome) AS v FROM episode WHERE run_id = ?`)
      .all(1)
      .map((r) => r.detail);
    assert.deepEqual(plan, ['SEARCH episode USING COVERING INDEX episode_outcome (run_id=?)'], fn);
  }
});

test('unidentifiedSteps lists the steps with a not-identifiable episode of the parameter set', () => {
  const db = f.store.db;
  const insert = db.prepare(
    `INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, computed_at, status) VALUES (?, ?, ?, ?, 'why', 'now', ?)`,
  );
  insert.run(f.teamRunId, f.id('t2a'), 'loo', 'h', 'not-identifiable');
  insert.run(f.teamRunId, f.id('t1a'), 'loo', 'h', 'failed');
  insert.run(f.teamRunId, f.id('t-none'), 'loo', 'h', 'not-identifiable');
  insert.run(f.teamRunId, f.id('t1b'), 'loo', 'other', 'not-identifiable');
  try {
    assert.deepEqual(repo.unidentifiedSteps(f.teamRunId, 'loo', 'h'), [2], 'failed, step-less and other sets left out');
    assert.deepEqual(repo.unidentifiedSteps(f.teamRunId, 'shapley', 'h'), []);
  } finally {
    db.exec('DELETE FROM credit_error');
  }
});

test('creditDomain: the bound covers marginal contributions and the reward itself', () => {
  assert.deepEqual(creditDomain({ min: 0, max: 1 }), { bound: 1, reward: { min: 0, max: 1 } });
  assert.equal(creditDomain({ min: -1, max: 1 }).bound, 2, 'a difference of two rewards spans max − min');
  assert.equal(creditDomain({ min: 5, max: 6 }).bound, 6, 'the shared signal (the reward) stays inside');
  assert.equal(creditDomain({ min: 0.5, max: 0.5 }).bound, 0.5);
  assert.deepEqual(creditDomain({ min: 0, max: 0 }), { bound: 1, reward: { min: 0, max: 0 } }, 'all-zero rewards: ±1');
  assert.deepEqual(creditDomain(null), { bound: 1, reward: null });
  assert.deepEqual(creditDomain({ min: Number.NaN, max: 1 }), { bound: 1, reward: null });
});
