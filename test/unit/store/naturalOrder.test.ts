import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { mulberry32 } from '../../../src/core/mulberry32';
import { naturalSortKey } from '../../../src/core/naturalSortKey';
import { runIndexJob } from '../../../src/engine/indexJob';
import { AuditRepository } from '../../../src/store/auditRepository';
import { BrowseRepository } from '../../../src/store/browseRepository';
import { DashboardRepository, episodePageQueries } from '../../../src/store/dashboardRepository';
import { openDatabase } from '../../../src/store/database';
import { IndexStore } from '../../../src/store/indexStore';
import { migrate } from '../../../src/store/migrate';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { indexedDemo, revertTo11 } from './demoIndex';
import { planParams, queryPlan } from './queryPlan';

/** `ids` in the order SQLite sorts their keys (byte-wise, as an index on the key reads them). */
function sqlOrder(ids: readonly string[]): string[] {
  const db = openDatabase(':memory:');
  try {
    db.exec('CREATE TABLE t (id TEXT, k TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    for (const id of ids) insert.run(id, naturalSortKey(id));
    return db
      .prepare<{ id: string }>('SELECT id FROM t ORDER BY k')
      .all()
      .map((r) => r.id);
  } finally {
    db.close();
  }
}

const shuffled = <T>(items: readonly T[], seed = 7): T[] => {
  const random = mulberry32(seed);
  return [...items]
    .map((x) => [random(), x] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, x]) => x);
};

test('ids sort numeric-aware: a:2 before a:10, leading zeros after their twin, text and unicode in place', () => {
  const expected = [
    'a',
    'a:1',
    'a:2',
    'a:007',
    'a:7-x',
    'a:9',
    'a:10',
    'a:11',
    'a:99999999',
    'a:100000000',
    'a:1000000000000',
    'a:b',
    'alpha',
    'beta',
    'step2-g3-r1',
    'step2-g10-r0',
    'step10-g0-r0',
    'é2',
    'é10',
    'ü',
  ];
  assert.deepEqual(sqlOrder(shuffled(expected)), expected);
  assert.deepEqual(sqlOrder(['0', '00', '000', '1']), ['0', '00', '000', '1']);
  assert.notEqual(naturalSortKey('a:7'), naturalSortKey('a:007'), 'two ids never share a key');
  assert.equal(naturalSortKey(''), '');
});

test('random prefix–number–suffix ids sort by prefix, then number value, then suffix', () => {
  const random = mulberry32(11);
  const prefixes = ['run-', 'g:', 'step', 'x'];
  const suffixes = ['', '-r', ':b', 'z'];
  const parts = Array.from({ length: 300 }, () => ({
    prefix: prefixes[Math.floor(random() * prefixes.length)] ?? '',
    n: BigInt(Math.floor(random() ** 4 * 1e12)),
    suffix: suffixes[Math.floor(random() * suffixes.length)] ?? '',
  }));
  const unique = [...new Map(parts.map((p) => [`${p.prefix}${String(p.n)}${p.suffix}`, p])).values()];
  const oracle = [...unique].sort((a, b) => {
    if (a.prefix !== b.prefix) return Buffer.compare(Buffer.from(a.prefix), Buffer.from(b.prefix));
    if (a.n !== b.n) return a.n < b.n ? -1 : 1;
    return a.suffix < b.suffix ? -1 : a.suffix > b.suffix ? 1 : 0;
  });
  const ids = oracle.map((p) => `${p.prefix}${String(p.n)}${p.suffix}`);
  assert.deepEqual(sqlOrder(shuffled(ids)), ids);
});

/** One run whose groups and ids sort differently as text: g:1, g:10, g:11, g:2. */
let store: IndexStore;
let runId: number;
const groups = ['g:1', 'g:10', 'g:11', 'g:2'];
const ids = (group: string): string[] => Array.from({ length: 12 }, (_, r) => `${group}-r${String(r)}`);

before(async () => {
  const root = tempFolder();
  mkdirSync(join(root, 'run'));
  writeFileSync(join(root, 'run', 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'run' }));
  const episodes = groups.flatMap((group) =>
    ids(group).map((id) => episode(id, { step: 1, group, sample: undefined })),
  );
  writeFileSync(join(root, 'run', 'a.jsonl'), jsonl(...shuffled(episodes, 3)));
  const { index } = await runIndexJob({ root });
  store = IndexStore.open(index.path);
  runId = store.db.prepare<{ run_id: number }>('SELECT run_id FROM run').get()?.run_id ?? -1;
});

after(() => store.close());

test('the Runs tree lists groups and their episodes numeric-aware, and pages stay stable', () => {
  const browse = new BrowseRepository(store.db);
  assert.deepEqual(
    browse.groups(runId, 1).map((g) => g.group),
    ['g:1', 'g:2', 'g:10', 'g:11'],
  );
  const whole = browse.episodes(runId, 1, 'g:10', 100).map((e) => e.externalId);
  assert.deepEqual(
    whole,
    ids('g:10').sort((a, b) => Number(a.split('-r')[1]) - Number(b.split('-r')[1])),
  );
  assert.equal(whole[2], 'g:10-r2');
  const paged = [0, 5, 10].flatMap((offset) => browse.episodes(runId, 1, 'g:10', 5, offset).map((e) => e.externalId));
  assert.deepEqual(paged, whole);
});

test("the dashboard's id sort is numeric-aware in both directions, read from episode_natural without a sort", () => {
  const repo = new DashboardRepository(store.db);
  const page = (descending: boolean, offset: number, limit: number): string[] =>
    repo
      .episodePage({ runId, filter: {}, sort: { key: 'externalId', descending }, offset, limit })
      .rows.map((r) => r.externalId);
  const expected = sqlOrder(groups.flatMap(ids));
  assert.equal(expected[0], 'g:1-r0');
  assert.equal(expected[12], 'g:2-r0');
  assert.deepEqual(page(false, 0, 100), expected);
  assert.deepEqual(page(true, 0, 100), [...expected].reverse());
  assert.deepEqual(
    [0, 7, 14, 21, 28, 35, 42].flatMap((offset) => page(false, offset, 7)),
    expected,
  );
  for (const dir of ['asc', 'desc']) {
    const plan = queryPlan(store.db, episodePageQueries.get(`externalId:${dir}:set`) ?? '', planParams);
    assert.ok(
      plan.some((d) => d.startsWith('SEARCH e USING INDEX episode_natural (run_id=?)')),
      plan.join(' | '),
    );
    assert.ok(!plan.some((d) => d.startsWith('USE TEMP B-TREE')), plan.join(' | '));
  }
});

test('migration 0016 gives an existing index its keys and recounts its flags as flags about episodes', async () => {
  const { store: demo } = await indexedDemo();
  const db = demo.db;
  const team = db.prepare<{ run_id: number }>("SELECT run_id FROM run WHERE name LIKE '%verifier%'").get()?.run_id;
  assert.ok(team !== undefined);
  new AuditRepository(db).replaceFlags(team, [
    { kind: 'decoupling', agent: 'solver', scope: 'run', steps: [1, 9], evidence: {} },
    { kind: 'silent', agent: 'verifier', scope: 'episode', episode: 's1-g1-r2', evidence: {} },
  ]);
  const written = db
    .prepare<{ external_id: string; external_key: string; group_key: string | null }>(
      'SELECT external_id, external_key, group_key FROM episode ORDER BY episode_id',
    )
    .all();
  revertTo11(db);
  migrate(db);
  const migrated = db
    .prepare<{ external_id: string; external_key: string; group_key: string | null }>(
      'SELECT external_id, external_key, group_key FROM episode ORDER BY episode_id',
    )
    .all();
  assert.ok(migrated.length > 200);
  assert.deepEqual(migrated, written, 'the keys the migration computes are the ones written with each episode');
  const flagged = db
    .prepare<{ external_id: string; n: number }>(
      "SELECT e.external_id, f.n FROM episode_flag f JOIN episode e USING (episode_id) WHERE f.kind = ''",
    )
    .all();
  assert.deepEqual(flagged, [{ external_id: 's1-g1-r2', n: 1 }], 'the run-wide window counts on no episode');
  demo.close();
});
