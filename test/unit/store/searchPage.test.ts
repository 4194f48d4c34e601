import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Episode } from '../../../src/core/episode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { DashboardViewService } from '../../../src/engine/views/dashboardViewService';
import { DashboardRepository, episodePageQueries, type EpisodePageQuery } from '../../../src/store/dashboardRepository';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { planParams, queryPlan } from './queryPlan';

// The episode page's full-text search on a seeded run, against an oracle computed from the
// episodes themselves: a search small enough to sort gives the asked order, a bigger one the index
// (id) order, and both count exactly under the count-ahead window and as a lower bound past it.

const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'] as const;
const episodeCount = 240;

/** A small deterministic PRNG (mulberry32), so the seeded run is the same at every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seededEpisodes(): Episode[] {
  const next = random(15);
  const list: Episode[] = [];
  for (let i = 0; i < episodeCount; i++) {
    // Word k appears in a message with chance 1 / (k + 2): from common (alpha) to rare (sigma).
    const text = (): string => words.filter((_, k) => next() < 1 / (k + 2)).join(' ') || 'nothing to see';
    list.push(
      episode(`e${String(i)}`, {
        step: 1 + Math.floor(i / 24),
        group: `g${String(Math.floor(i / 8))}`,
        sample: i % 8,
        // Quarter steps: many ties, which the episode id breaks.
        reward: Math.floor(next() * 5) / 4,
        messages: [
          { agent: 'planner', role: 'assistant', content: text() },
          { agent: 'solver', role: 'assistant', content: text() },
        ],
      }),
    );
  }
  return list;
}

let store: IndexStore;
let runId: number;
let seeded: Episode[];
let idOf: Map<string, number>;

before(async () => {
  const root = tempFolder('credit-lens-search-page-');
  mkdirSync(join(root, 'team'));
  writeFileSync(
    join(root, 'team', 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'team', mechanism: 'pipeline' }),
  );
  seeded = seededEpisodes();
  writeFileSync(join(root, 'team', 'a.jsonl'), jsonl(...seeded));
  const { index } = await runIndexJob({ root });
  store = IndexStore.open(index.path);
  runId = store.db.prepare<{ run_id: number }>("SELECT run_id FROM run WHERE name = 'team'").get()?.run_id ?? -1;
  idOf = new Map(
    store.db
      .prepare<{ external_id: string; episode_id: number }>('SELECT external_id, episode_id FROM episode')
      .all()
      .map((r) => [r.external_id, r.episode_id]),
  );
});

after(() => store.close());

interface Expected {
  readonly id: number;
  readonly external: string;
  readonly reward: number;
  readonly step: number;
}

/** The matching episodes (its messages together hold every word of one `OR` branch), in id order. */
function oracle(query: string, keep: (e: Expected) => boolean = () => true): Expected[] {
  const branches = query.split(' OR ').map((b) => b.split(' '));
  return seeded
    .filter((e) => {
      const have = new Set(e.messages.flatMap((m) => m.content.split(' ')));
      return branches.some((b) => b.every((w) => have.has(w)));
    })
    .map((e) => ({ id: idOf.get(e.id) ?? -1, external: e.id, reward: e.reward ?? 0, step: e.step ?? 0 }))
    .filter(keep)
    .sort((a, b) => a.id - b.id);
}

const byRewardDescending = (a: Expected, b: Expected): number => b.reward - a.reward || b.id - a.id;

const pageOf = (
  search: string,
  offset: number,
  limit: number,
  extra: EpisodePageQuery['filter'] = {},
): EpisodePageQuery => ({
  runId,
  filter: { search, ...extra },
  sort: { key: 'reward', descending: true },
  offset,
  limit,
});

const externals = (rows: readonly { externalId: string }[]): string[] => rows.map((r) => r.externalId);

test('a search small enough to sort gives the asked order and an exact count (the page before this change)', () => {
  const repo = new DashboardRepository(store.db);
  for (const query of ['alpha', 'gamma', 'sigma', 'beta OR sigma', 'alpha delta']) {
    const expected = oracle(query).sort(byRewardDescending);
    assert.ok(expected.length > 0, `the seeded run has matches of ${query}`);
    for (const [offset, limit] of [
      [0, 50],
      [10, 7],
    ] as const) {
      const page = repo.episodePage(pageOf(query, offset, limit));
      assert.deepEqual(
        externals(page.rows),
        expected.slice(offset, offset + limit).map((e) => e.external),
        `${query} at ${String(offset)}`,
      );
      assert.deepEqual([page.total, page.totalIsLowerBound, page.inIndexOrder], [expected.length, false, false]);
    }
  }
});

test('a search matching more episodes than the sortable cap lists its matches in index order, counted up to the window', () => {
  const sortable = 20;
  const countAhead = 15;
  const repo = new DashboardRepository(store.db, countAhead, sortable);
  const all = oracle('alpha');
  assert.ok(all.length > 100, 'alpha is common');
  for (const [offset, limit] of [
    [0, 25],
    [40, 25],
    [all.length - 10, 25],
  ] as const) {
    const page = repo.episodePage(pageOf('alpha', offset, limit));
    assert.equal(page.inIndexOrder, true);
    assert.deepEqual(
      externals(page.rows),
      all.slice(offset, offset + limit).map((e) => e.external),
    );
    const window = offset + limit + countAhead;
    assert.deepEqual(
      [page.total, page.totalIsLowerBound],
      all.length > window ? [window, true] : [all.length, false],
      `at ${String(offset)}: exact under the window, a lower bound past it`,
    );
  }
  // The other filters apply in index order as well.
  const filtered = oracle('alpha', (e) => e.step >= 3 && e.reward >= 0.5);
  const page = repo.episodePage(pageOf('alpha', 0, 10, { stepFrom: 3, rewardMin: 0.5 }));
  assert.deepEqual(
    externals(page.rows),
    filtered.slice(0, 10).map((e) => e.external),
  );
  assert.equal(page.inIndexOrder, true);
});

test('the sortable cap counts episodes: a rare term under it stays sorted, the same term is in index order past it', () => {
  const expected = oracle('sigma').sort(byRewardDescending);
  const matching = expected.length;
  assert.notDeepEqual(expected, oracle('sigma'), 'reward order is not id order on the seeded run');
  const under = new DashboardRepository(store.db, 10_000, matching).episodePage(pageOf('sigma', 0, 500));
  assert.deepEqual([externals(under.rows), under.inIndexOrder], [expected.map((e) => e.external), false]);
  const past = new DashboardRepository(store.db, 10_000, matching - 1).episodePage(pageOf('sigma', 0, 500));
  assert.deepEqual(
    [externals(past.rows), past.inIndexOrder, past.total],
    [oracle('sigma').map((e) => e.external), true, expected.length],
  );
});

test('a malformed full-text query throws a clear SQLite error from the page and gives searchError from the service', () => {
  const service = new DashboardViewService(store.db, '.');
  for (const bad of ['"open', 'AND', 'alpha OR', '(beta', 'NEAR(']) {
    for (const repo of [new DashboardRepository(store.db), new DashboardRepository(store.db, 5, 1)])
      assert.throws(() => repo.episodePage(pageOf(bad, 0, 10)), /syntax error|unterminated|fts5/i, bad);
    const page = service.episodes({
      runId,
      filter: { search: bad },
      sort: { key: 'reward', descending: true },
      offset: 0,
      limit: 10,
    });
    assert.deepEqual([page.rows, page.total], [[], 0]);
    assert.match(page.searchError ?? '', new RegExp(`^cannot search for "${bad.replace(/[()]/g, '\\$&')}"`));
  }
  assert.equal(service.episodes({ ...pageOf('alpha', 0, 5), filter: { search: 'alpha' } }).searchError, null);
});

test('the index-order page reads the full-text matches in rowid order and sorts only the page', () => {
  for (const [name, sql] of [
    ['page', episodePageQueries.get('search:index')],
    ['count', episodePageQueries.get('count:matches:none')],
  ] as const) {
    const plan = queryPlan(store.db, sql ?? '', { ...planParams, run: runId, search: 'alpha' });
    const fts = plan.findIndex((d) => d.startsWith('SCAN episode_fts VIRTUAL TABLE'));
    const episodes = plan.findIndex((d) => d.startsWith('SEARCH e USING INTEGER PRIMARY KEY'));
    assert.ok(fts >= 0 && episodes > fts, `${name}: the matches drive the join: ${plan.join(' | ')}`);
    // The page's one ORDER BY sort is the outer one, over the page's rows (after "SCAN p").
    const sorts = plan.filter((d) => d === 'USE TEMP B-TREE FOR ORDER BY').length;
    const outer = plan.indexOf('SCAN p');
    assert.ok(
      sorts <= 1 && (sorts === 0 || plan.lastIndexOf('USE TEMP B-TREE FOR ORDER BY') > outer),
      plan.join(' | '),
    );
  }
});
