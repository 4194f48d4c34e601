import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DashboardRepository, episodePageQueries, type EpisodePageQuery } from '../../../src/store/dashboardRepository';
import { agentCredit, insertCredit, viewFixture, type ViewFixture } from '../engine/views/viewFixture';
import { planParams, queryPlan } from './queryPlan';

let f: ViewFixture;
let repo: DashboardRepository;

before(async () => {
  f = await viewFixture();
  repo = new DashboardRepository(f.store.db);
  // Verifier credit of five team episodes; t-none and t3b (no verifier) have none.
  insertCredit(f, [
    ...agentCredit('t1a', [0.1, 0.2, 0.3]),
    ...agentCredit('t1b', [0.4, 0.5, -0.2]),
    ...agentCredit('t2a', [0, 0, 0.04]),
    ...agentCredit('t2b', [0, 0, 0.9]),
    ...agentCredit('t-long', [0, 0, -0.2]),
    { episode: 't1a', agent: 'verifier', value: 7, seq: 3 },
  ]);
});

after(() => f.store.close());

const credit = { method: 'loo', paramsHash: 'h1' };
const page = (over: Partial<EpisodePageQuery> & { filter?: EpisodePageQuery['filter'] }) =>
  repo.episodePage({
    runId: f.teamRunId,
    filter: { split: 'all' },
    sort: { key: 'credit:verifier', descending: false },
    offset: 0,
    limit: 100,
    credit,
    ...over,
  });
const ids = (p: ReturnType<typeof page>): string[] => p.rows.map((r) => r.externalId);

test("a page sorted by an agent's credit lists it most negative first, ties by episode, the uncredited last", () => {
  assert.deepEqual(ids(page({})), ['t1b', 't-long', 't2a', 't1a', 't2b', 't-none', 't3b']);
  assert.deepEqual(ids(page({ sort: { key: 'credit:verifier', descending: true } })), [
    't2b',
    't1a',
    't2a',
    't-long',
    't1b',
    't-none',
    't3b',
  ]);
});

test('pages of a credit sort continue across the end of the credited part', () => {
  const all = ids(page({}));
  for (const limit of [1, 2, 3, 4])
    for (let offset = 0; offset < all.length; offset += limit)
      assert.deepEqual(ids(page({ offset, limit })), all.slice(offset, offset + limit), `${limit} at ${offset}`);
});

test("every row carries its agents' agent-level credit, in the run's agent order (message-level rows left out)", () => {
  const p = page({});
  assert.deepEqual(p.agents, ['planner', 'solver', 'verifier']);
  assert.deepEqual(p.rows.find((r) => r.externalId === 't1a')?.credit, [0.1, 0.2, 0.3]);
  assert.deepEqual(p.rows.find((r) => r.externalId === 't3b')?.credit, [null, null, null]);
  assert.deepEqual(page({ credit: null, sort: { key: 'externalId', descending: false } }).rows[0]?.credit, [
    null,
    null,
    null,
  ]);
});

test("a range of an agent's credit filters the page and its count; without stored credit it keeps nothing", () => {
  const below = page({ filter: { split: 'all', agentCredit: { agent: 'verifier', max: 0.05 } } });
  assert.equal(below.total, 3);
  assert.deepEqual(ids(below), ['t1b', 't-long', 't2a']);
  const between = page({
    filter: { split: 'all', agentCredit: { agent: 'verifier', min: 0, max: 0.5 } },
    sort: { key: 'externalId', descending: false },
  });
  assert.deepEqual(ids(between), ['t1a', 't2a']);
  const none = page({ credit: null, filter: { split: 'all', agentCredit: { agent: 'verifier', max: 1 } } });
  assert.equal(none.total, 0);
  assert.deepEqual(page({ sort: { key: 'credit:nobody', descending: false } }).rows.length, 7);
});

test('a credit-sorted page reads the agent credit in credit_agent_sort order: no sort of the run, no scan', () => {
  const params = { ...planParams, run: f.teamRunId, hash: 'h1', limit: 100 };
  for (const key of ['credit:asc', 'credit:desc']) {
    const p = queryPlan(f.store.db, episodePageQueries.get(key) ?? '', params);
    assert.ok(
      p.some((d) => d.startsWith('SEARCH c USING INDEX credit_agent_sort (set_id=? AND agent_id=?')),
      p.join(' | '),
    );
    assert.ok(!p.some((d) => /^SCAN (e|episode|c|credit)\b/.test(d)), p.join(' | '));
    // Only the page's ties are sorted (the outer query over at most :limit rows), never the whole ORDER BY.
    assert.ok(!p.includes('USE TEMP B-TREE FOR ORDER BY'), p.join(' | '));
  }
});

test("the count of a credit range reads the range from credit_agent_sort's value bounds", () => {
  const params = { ...planParams, run: f.teamRunId, hash: 'h1', creditAgent: 'verifier', creditMax: 0.05 };
  const p = queryPlan(f.store.db, episodePageQueries.get('creditRangeCount') ?? '', params);
  assert.ok(
    p.some((d) => /^SEARCH c USING INDEX credit_agent_sort \(.*agent_id=\? AND value>\? AND value<\?\)/.test(d)),
    p.join(' | '),
  );
});
