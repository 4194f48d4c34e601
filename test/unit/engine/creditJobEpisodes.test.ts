import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCreditJob } from '../../../src/engine/credit/creditJob';
import { viewFixture, type ViewFixture } from './views/viewFixture';

let f: ViewFixture;

before(async () => {
  f = await viewFixture();
});

after(() => f.store.close());

interface Stored {
  credit_id: number;
  external_id: string;
  agent_id: number;
  value: number | null;
  computed_at: string;
}

function stored(): Stored[] {
  return f.store.db
    .prepare<Stored>(
      "SELECT c.credit_id, e.external_id, c.agent_id, c.value, c.computed_at FROM credit c JOIN episode e USING (episode_id) WHERE c.method = 'shared' ORDER BY c.episode_id, c.agent_id",
    )
    .all();
}

test('runCreditJob({episodes}) computes and stores only the chosen episodes; other rows and runs are left as they are', async () => {
  const all = await runCreditJob({ root: f.root, method: 'shared' });
  assert.deepEqual(
    all.runs.map((r) => [r.run.name, r.computed, r.failures.length]),
    [
      ['solo', 1, 0],
      ['team', 6, 1],
    ],
  );
  const before = stored();
  f.store.db.prepare("UPDATE credit SET value = 42 WHERE episode_id = ? AND method = 'shared'").run(f.id('t2a'));

  const one = await runCreditJob({ root: f.root, method: 'shared', episodes: [f.id('t2a')] });
  assert.deepEqual(
    one.runs.map((r) => [r.run.name, r.computed, r.failures.length]),
    [['team', 1, 0]],
    'the solo run holds none of them',
  );
  const after = stored();
  assert.equal(after.length, before.length);
  const t2a = after.filter((r) => r.external_id === 't2a');
  assert.deepEqual(
    t2a.map((r) => r.value),
    [1, 1, 1],
    'the chosen episode is recomputed',
  );
  assert.ok(
    t2a.every((r) => !before.some((b) => b.credit_id === r.credit_id)),
    'its rows are new',
  );
  assert.deepEqual(
    after.filter((r) => r.external_id !== 't2a'),
    before.filter((r) => r.external_id !== 't2a'),
    'every other row is untouched',
  );

  const two = await runCreditJob({ root: f.root, method: 'shared', episodes: [f.id('s1'), f.id('t-none'), 999_999] });
  assert.deepEqual(
    two.runs.map((r) => [r.run.name, r.computed, r.failures.map((x) => x.where)]),
    [
      ['solo', 1, []],
      ['team', 0, ['team/a.jsonl:5']],
    ],
  );
  const none = await runCreditJob({ root: f.root, method: 'shared', episodes: [] });
  assert.deepEqual(none.runs, []);
});

test('runCreditJob({episodes}) recomputes GRPO advantages in the chosen episodes’ groups only', async () => {
  await runCreditJob({ root: f.root, method: 'shared' });
  f.store.db.prepare("UPDATE credit SET advantage = 99 WHERE method = 'shared'").run();
  await runCreditJob({ root: f.root, method: 'shared', episodes: [f.id('t2a')] });
  const rows = f.store.db
    .prepare<{ group_id: string | null; advantage: number | null }>(
      "SELECT e.group_id, c.advantage FROM credit c JOIN episode e USING (episode_id) WHERE c.method = 'shared' AND c.message_seq IS NULL",
    )
    .all();
  const group = f.store.db
    .prepare<{ group_id: string }>('SELECT group_id FROM episode WHERE episode_id = ?')
    .get(f.id('t2a'))?.group_id;
  assert.ok(group !== undefined && group !== null, 't2a belongs to a group');
  const inGroup = rows.filter((r) => r.group_id === group);
  assert.ok(inGroup.length > 1);
  assert.ok(
    inGroup.every((r) => r.advantage !== 99),
    'the chosen group is recomputed',
  );
  const others = rows.filter((r) => r.group_id !== group && r.group_id !== null);
  assert.ok(others.length > 0 && others.every((r) => r.advantage === 99), 'other groups are not rewritten');
});
