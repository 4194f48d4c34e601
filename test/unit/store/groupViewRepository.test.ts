import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GroupViewRepository, groupViewQueries } from '../../../src/store/groupViewRepository';
import { agentCredit, insertCredit, viewFixture, type ViewFixture } from '../engine/views/viewFixture';
import { queryPlan } from './queryPlan';

let f: ViewFixture;
let repo: GroupViewRepository;

before(async () => {
  f = await viewFixture();
  repo = new GroupViewRepository(f.store.db);
});

after(() => f.store.close());

test('every group view statement reads the group through episode_group, never scanning episodes or credit', () => {
  const params = { run: f.teamRunId, group: 'g1', episode: f.id('t1a') };
  for (const [name, sql] of Object.entries(groupViewQueries)) {
    const plan = queryPlan(f.store.db, sql, params);
    assert.ok(
      // credit_set (migration 0023) holds a row per run, method and parameter set: scanning it is reading a handful.
      !plan.some(
        (d) => /^SCAN /.test(d) && !d.startsWith('SCAN CONSTANT ROW') && !/^SCAN s USING COVERING INDEX/.test(d),
      ),
      `${name}: ${plan.join(' | ')}`,
    );
  }
  for (const name of ['rollouts', 'roster', 'credit', 'errors'] as const)
    assert.match(
      queryPlan(f.store.db, groupViewQueries[name], params).join(' | '),
      /SEARCH e USING (COVERING )?INDEX episode_group \(run_id=\? AND group_id=\?\)/,
      name,
    );
  assert.match(
    queryPlan(f.store.db, groupViewQueries.credit, params).join(' | '),
    /SEARCH v USING INDEX credit_agent_value \(set_id=\? AND episode_id=\?\)/,
  );
});

test('rollouts() lists the group by sample; the same id in another run is another group', () => {
  assert.deepEqual(
    repo.rollouts(f.teamRunId, 'g1').map((r) => [r.externalId, r.step, r.sample, r.reward]),
    [
      ['t1a', 1, 0, 1],
      ['t1b', 1, 1, 0],
    ],
  );
  assert.deepEqual(
    repo.rollouts(f.soloRunId, 'g1').map((r) => r.externalId),
    ['s1'],
  );
  assert.deepEqual(repo.rollouts(f.teamRunId, 'nope'), []);
});

test('roster() carries the logged advantage; a rollout missing an agent lists only its own', () => {
  const rows = repo.roster(f.teamRunId, 'g1');
  assert.deepEqual(
    rows.filter((r) => r.episodeId === f.id('t1a')).map((r) => [r.agent, r.ordinal, r.loggedAdvantage]),
    [
      ['planner', 0, null],
      ['solver', 1, -0.5],
      ['verifier', 2, null],
    ],
  );
  assert.deepEqual(
    repo
      .roster(f.teamRunId, 'g3')
      .filter((r) => r.episodeId === f.id('t3b'))
      .map((r) => r.agent),
    ['planner', 'solver'],
  );
});

test('credit() returns agent rows of every method of the group only; errors() the failures', () => {
  insertCredit(f, [
    ...agentCredit('t1a', [0.5, null, 0.25]),
    ...agentCredit('t2a', [9, 9, 9]),
    { episode: 't1b', agent: 'solver', value: 0.1, method: 'shapley' },
    { episode: 't1b', agent: 'solver', value: 7, seq: 1 },
  ]);
  f.store.db
    .prepare(
      `INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, computed_at, status, remedy)
       VALUES (?, ?, 'loo', 'h1', 'no values', '2026-02-01T00:00:00.000Z', 'not-identifiable', 'log counterfactuals')`,
    )
    .run(f.teamRunId, f.id('t1b'));
  const rows = repo.credit(f.teamRunId, 'g1');
  assert.deepEqual(
    rows.map((r) => [r.method, r.episodeId === f.id('t1a') ? 't1a' : 't1b', r.agent, r.value]),
    [
      ['loo', 't1a', 'planner', 0.5],
      ['loo', 't1a', 'solver', null],
      ['loo', 't1a', 'verifier', 0.25],
      ['shapley', 't1b', 'solver', 0.1],
    ],
  );
  assert.deepEqual(
    repo.errors(f.teamRunId, 'g1').map((e) => [e.method, e.status, e.reason, e.remedy]),
    [['loo', 'not-identifiable', 'no values', 'log counterfactuals']],
  );
  f.store.db.exec('DELETE FROM credit; DELETE FROM credit_error');
});

test('groupOfEpisode() gives the group and its size; run() says whether any episode logs a group', () => {
  assert.deepEqual(repo.groupOfEpisode(f.id('t2b')), { runId: f.teamRunId, group: 'g2', rollouts: 2 });
  assert.deepEqual(repo.groupOfEpisode(f.id('t-none')), { runId: f.teamRunId, group: null, rollouts: 0 });
  assert.equal(repo.groupOfEpisode(999_999), undefined);
  assert.deepEqual(repo.run(f.teamRunId), { name: 'team', grouped: true });
  assert.deepEqual(repo.run(f.soloRunId), { name: 'solo', grouped: true });
  f.store.db.prepare('UPDATE episode SET group_id = NULL WHERE run_id = ?').run(f.soloRunId);
  assert.deepEqual(repo.run(f.soloRunId), { name: 'solo', grouped: false });
  f.store.db.prepare("UPDATE episode SET group_id = 'g1' WHERE run_id = ?").run(f.soloRunId);
  assert.equal(repo.run(999_999), undefined);
});
