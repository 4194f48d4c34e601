import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EpisodePage, EpisodeRow } from '../../../src/protocol/dashboardPanel';
import { TableData, type TableQuery } from '../../../webview/src/dashboard/tableData';
import { pageSize } from '../../../webview/src/dashboard/tableModel';

const row = (i: number): EpisodeRow => ({
  episodeId: i,
  externalId: `e${String(i)}`,
  step: 0,
  group: null,
  sample: null,
  reward: null,
  agents: 1,
  messages: 1,
  flags: 0,
});

/** A query over `total` rows whose fetches wait until `release()`; `calls` lists the offsets asked. */
function deferredQuery(key: string, total: number, tag = '') {
  const calls: number[] = [];
  const waiting: (() => void)[] = [];
  const query: TableQuery = {
    key,
    fetch: (offset, limit) => {
      calls.push(offset);
      return new Promise<EpisodePage>((resolve) => {
        waiting.push(() => {
          const rows = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
            ...row(offset + i),
            externalId: `${tag}e${String(offset + i)}`,
          }));
          resolve({ total, totalIsLowerBound: false, offset, rows, searchError: null });
        });
      });
    },
  };
  const release = async (): Promise<void> => {
    for (const done of waiting.splice(0)) done();
    await new Promise((r) => setImmediate(r));
  };
  return { query, calls, release };
}

test('TableData fetches the page of the first row while the total is unknown, then the pages on screen', async () => {
  let changes = 0;
  const data = new TableData(() => changes++);
  const q = deferredQuery('a', 1000);
  data.setQuery(q.query);
  data.ensure(250, 400);
  assert.deepEqual(q.calls, [200], 'only the first page until the total is known');
  data.ensure(250, 400);
  assert.deepEqual(q.calls, [200], 'a pending page is not asked twice');
  await q.release();
  assert.equal(data.total, 1000);
  assert.equal(data.row(250)?.episodeId, 250);
  assert.equal(data.row(300), undefined);
  assert.equal(changes, 1);
  data.ensure(250, 400);
  assert.deepEqual(q.calls, [200, 300]);
  data.ensure(990, 2000);
  assert.deepEqual(q.calls, [200, 300, 900], 'no page past the total');
});

test('TableData drops answers to an outdated query and the rows of a new one', async () => {
  const data = new TableData(() => undefined);
  const a = deferredQuery('a', 50);
  data.setQuery(a.query);
  data.ensure(0, 10);
  const b = deferredQuery('b', 5);
  data.setQuery(b.query);
  await a.release();
  assert.equal(data.total, undefined, 'the answer for query a is ignored');
  data.ensure(0, 10);
  await b.release();
  assert.equal(data.total, 5);
});

test('TableData keeps stale rows on screen while a newer revision refetches them', async () => {
  const data = new TableData(() => undefined);
  const r1 = deferredQuery('rev1', 300, 'old-');
  data.setQuery(r1.query);
  data.ensure(0, 10);
  await r1.release();
  const r2 = deferredQuery('rev2', 300, 'new-');
  data.setQuery(r2.query, true);
  assert.equal(data.row(3)?.externalId, 'old-e3');
  assert.equal(data.total, 300);
  data.ensure(0, 10);
  await r2.release();
  assert.equal(data.row(3)?.externalId, 'new-e3');
});

test('TableData does not ask a failed page again until the query changes, and reports the error', async () => {
  let calls = 0;
  const data = new TableData(() => undefined);
  data.setQuery({
    key: 'x',
    fetch: () => {
      calls++;
      return Promise.reject(new Error('host gone'));
    },
  });
  data.ensure(0, 10);
  await new Promise((r) => setImmediate(r));
  data.ensure(0, 10);
  assert.equal(calls, 1);
  assert.equal(data.error, 'host gone');
  data.setQuery({
    key: 'y',
    fetch: () =>
      Promise.resolve({ total: 0, totalIsLowerBound: false, offset: 0, rows: [], searchError: 'fts5: syntax error' }),
  });
  data.ensure(0, 10);
  await new Promise((r) => setImmediate(r));
  assert.equal(data.error, null);
  assert.equal(data.searchError, 'fts5: syntax error');
  assert.equal(data.total, 0);
});

test('TableData keeps a bounded number of pages', async () => {
  const data = new TableData(() => undefined);
  const q = deferredQuery('big', 100 * pageSize);
  data.setQuery(q.query);
  data.ensure(0, 1);
  await q.release();
  for (let p = 1; p < 100; p++) {
    data.ensure(p * pageSize, p * pageSize + 1);
    await q.release();
  }
  assert.equal(data.row(0), undefined, 'the oldest page was dropped');
  assert.equal(data.row(99 * pageSize)?.episodeId, 99 * pageSize);
});

test('the count text says "N+" while the host counted only part of the matches', async () => {
  const data = new TableData(() => undefined);
  assert.equal(data.countText(), 'Loading…');
  const answer = (total: number, totalIsLowerBound: boolean) => ({
    key: `q${String(total)}${String(totalIsLowerBound)}`,
    fetch: () => Promise.resolve({ total, totalIsLowerBound, offset: 0, rows: [], searchError: null }),
  });
  for (const [total, bound, text] of [
    [10_500, true, '10,500+ episodes'],
    [1, true, '1+ episodes'],
    [1, false, '1 episode'],
    [2, false, '2 episodes'],
  ] as const) {
    data.setQuery(answer(total, bound));
    data.ensure(0, 10);
    await new Promise((r) => setImmediate(r));
    assert.equal(data.countText(), text);
  }
});

/** The count text after one page whose answer is `page` (total, bound and notes), for each case. */
async function countTexts(cases: readonly (readonly [Partial<EpisodePage>, string])[]): Promise<void> {
  const data = new TableData(() => undefined);
  for (const [i, [page, text]] of cases.entries()) {
    const answer: EpisodePage = { total: 0, totalIsLowerBound: false, offset: 0, rows: [], searchError: null, ...page };
    data.setQuery({ key: `case ${String(i)}`, fetch: () => Promise.resolve(answer) });
    data.ensure(0, 10);
    await new Promise((r) => setImmediate(r));
    assert.equal(data.countText(), text);
  }
}

test('the count text says when a search too big to sort lists its matches in index order', async () => {
  const big = { total: 10_500, totalIsLowerBound: true };
  await countTexts([
    [{ ...big, inIndexOrder: true }, '10,500+ episodes in index order (too many matches to sort)'],
    [big, '10,500+ episodes'],
  ]);
});

test('the count text says how many episodes a search cannot match yet while search is still building', async () => {
  await countTexts([
    [
      { total: 12, unsearched: 130_000 },
      '12 episodes · search still building: 130,000 episodes of this folder not yet searchable',
    ],
    [{ total: 12, unsearched: 1 }, '12 episodes · search still building: 1 episode of this folder not yet searchable'],
    [{ total: 12 }, '12 episodes'],
  ]);
});
