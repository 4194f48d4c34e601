import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EpisodeViewRepository, episodeViewQueries } from '../../../src/store/episodeViewRepository';
import { agentCredit, insertCredit, viewFixture, type ViewFixture } from '../engine/views/viewFixture';
import { queryPlan } from './queryPlan';

let f: ViewFixture;
let repo: EpisodeViewRepository;

before(async () => {
  f = await viewFixture();
  repo = new EpisodeViewRepository(f.store.db);
});

after(() => f.store.close());

const params = { episode: 1, method: 'loo', run_id: 1, train_step: 1, group_id: 'g', sample_idx: 0, episode_id: 1 };

test('every episode view statement reads by primary key or index, never scanning episodes or credit', () => {
  for (const [name, sql] of Object.entries(episodeViewQueries)) {
    const plan = queryPlan(f.store.db, sql, params, [1]);
    assert.ok(
      !plan.some((d) => /^SCAN /.test(d) && !d.startsWith('SCAN CONSTANT ROW')),
      `${name}: ${plan.join(' | ')}`,
    );
  }
  const plan = (sql: string): string => queryPlan(f.store.db, sql, params).join(' | ');
  assert.match(
    plan(episodeViewQueries.credit),
    /SEARCH s USING COVERING INDEX .* \| SEARCH v USING INDEX credit_agent_value \(set_id=\? AND episode_id=\?\)/,
  );
  assert.match(
    plan(episodeViewQueries.nextInStep),
    /SEARCH episode USING INDEX episode_step \(run_id=\? AND train_step=\?\)/,
  );
  assert.match(
    plan(episodeViewQueries.nextStep),
    /SEARCH episode USING INDEX episode_step \(run_id=\? AND train_step>\?\) \| USE TEMP B-TREE FOR LAST 3 TERMS OF ORDER BY/,
  );
});

test('credit() returns the rows of the parameter set computed last, agent rows first, NaN as null', () => {
  insertCredit(f, agentCredit('t2a', [1, 2, 3], { hash: 'b', at: '2026-05-01T00:00:00.000Z' }));
  insertCredit(f, [
    ...agentCredit('t2a', [4, null, 6], { hash: 'a', at: '2026-06-01T00:00:00.000Z' }),
    { episode: 't2a', agent: 'solver', value: 0.5, seq: 1, hash: 'a', at: '2026-06-01T00:00:00.000Z' },
  ]);
  const rows = repo.credit(f.id('t2a'), 'loo');
  assert.deepEqual(
    rows.map((r) => [r.agentId, r.messageSeq, r.value]),
    [
      [f.agentId('planner'), null, 4],
      [f.agentId('solver'), null, null],
      [f.agentId('verifier'), null, 6],
      [f.agentId('solver'), 1, 0.5],
    ],
  );
  assert.deepEqual(repo.credit(f.id('t2a'), 'shapley'), []);
});

test('messageAuthors() gives the roster ordinal of each message; roster() is in ordinal order', () => {
  assert.deepEqual(repo.messageAuthors(f.id('t1a')), [0, 0, 1, 2]);
  assert.equal(repo.messageAuthors(999_999), undefined);
  assert.deepEqual(
    repo.roster(f.id('t3b')).map((a) => [a.name, a.ordinal, a.messages]),
    [
      ['planner', 0, 1],
      ['solver', 1, 1],
    ],
  );
});
