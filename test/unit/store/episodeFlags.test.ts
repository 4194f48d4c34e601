import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AuditFlag } from '../../../src/core/auditReport';
import { AuditRepository } from '../../../src/store/auditRepository';
import { DashboardRepository, type EpisodePageQuery } from '../../../src/store/dashboardRepository';
import { viewFixture, type ViewFixture } from '../engine/views/viewFixture';

let f: ViewFixture;
let repo: DashboardRepository;

const flags: AuditFlag[] = [
  { kind: 'idle', agent: 'verifier', scope: 'step', steps: [1, 1], evidence: {} },
  { kind: 'free-rider', agent: 'planner', scope: 'step', steps: [2, 3], evidence: {} },
  { kind: 'idle', agent: 'planner', scope: 'step', steps: [3, 9], evidence: {} },
  { kind: 'silent', agent: 'verifier', scope: 'episode', episode: 't1b', evidence: {} },
  { kind: 'silent', agent: 'planner', scope: 'episode', episode: 't1b', evidence: {} },
  { kind: 'idle', agent: 'solver', scope: 'episode', episode: 't-none', evidence: {} },
  { kind: 'dominant', agent: 'solver', scope: 'run', evidence: {} },
];

before(async () => {
  f = await viewFixture();
  repo = new DashboardRepository(f.store.db);
  new AuditRepository(f.store.db).replaceFlags(f.teamRunId, flags);
});

after(() => f.store.close());

// The count the page computed before the counts were stored: step-scope windows holding the
// episode's step plus episode-scope flags naming it, per kind (:flag = null: every kind).
const referenceSql = `
  WITH step_flag AS (
    SELECT kind, CAST(substr(scope_id, 1, instr(scope_id, '..') - 1) AS INTEGER) AS lo,
      CAST(substr(scope_id, instr(scope_id, '..') + 2) AS INTEGER) AS hi
    FROM flag WHERE run_id = :run AND scope_kind = 'step' AND instr(scope_id, '..') > 0)
  SELECT e.episode_id,
    (SELECT count(*) FROM step_flag s WHERE e.train_step BETWEEN s.lo AND s.hi AND (:flag IS NULL OR s.kind = :flag))
    + (SELECT count(*) FROM flag x WHERE x.run_id = :run AND x.scope_kind = 'episode' AND x.scope_id = e.external_id
       AND (:flag IS NULL OR x.kind = :flag)) AS n
  FROM episode e WHERE e.run_id = :run`;
const reference = (kind: string | null): Map<number, number> =>
  new Map(
    f.store.db
      .prepare<{ episode_id: number; n: number }>(referenceSql)
      .all({ run: f.teamRunId, flag: kind })
      .map((r) => [r.episode_id, r.n]),
  );

const query = (
  filter: EpisodePageQuery['filter'],
  descending: boolean,
  offset = 0,
  limit = 50,
  key: EpisodePageQuery['sort']['key'] = 'flags',
): EpisodePageQuery => ({ runId: f.teamRunId, filter, sort: { key, descending }, offset, limit });

test('the stored counts equal the old per-episode count, per kind and over every kind', () => {
  const every = reference(null);
  assert.ok(
    [...every.values()].some((n) => n >= 2),
    'the fixture has an episode under several flags',
  );
  const page = repo.episodePage(query({}, true));
  assert.deepEqual(new Map(page.rows.map((r) => [r.episode_id, r.flags])), every);
  for (const kind of ['idle', 'free-rider', 'silent', 'dominant']) {
    const covered = [...reference(kind)].filter(([, n]) => n > 0).map(([id]) => id);
    const filtered = repo.episodePage(query({ flag: kind }, false, 0, 50, 'step'));
    assert.deepEqual(
      [filtered.total, filtered.rows.map((r) => r.episode_id).sort((a, b) => a - b)],
      [covered.length, covered.sort((a, b) => a - b)],
      kind,
    );
  }
  const any = [...every].filter(([, n]) => n > 0).length;
  assert.equal(repo.episodePage(query({ flag: 'any' }, true)).total, any);
});

test('pages sorted by flags follow (flags, episode id) in both directions, at every offset, filtered or not', () => {
  for (const filter of [{}, { stepFrom: 2 }, { flag: 'idle' }, { rewardMax: 0.9 }]) {
    for (const descending of [false, true]) {
      const whole = repo.episodePage(query(filter, descending)).rows;
      const sign = descending ? -1 : 1;
      const sorted = [...whole].sort((a, b) => sign * (a.flags - b.flags || a.episode_id - b.episode_id));
      assert.deepEqual(whole, sorted, JSON.stringify(filter));
      for (let offset = 0; offset <= whole.length; offset++) {
        const page = repo.episodePage(query(filter, descending, offset, 2)).rows;
        assert.deepEqual(page, whole.slice(offset, offset + 2), `${JSON.stringify(filter)} offset ${String(offset)}`);
      }
    }
  }
});

test('an episode indexed after the audit is counted by the flags already stored, and a deleted one loses its rows', () => {
  const db = f.store.db;
  const columns = db
    .prepare<{ name: string }>('SELECT name FROM pragma_table_info(?)')
    .all('episode')
    .map((c) => c.name)
    .filter((c) => c !== 'episode_id' && c !== 'external_id');
  db.prepare(
    `INSERT INTO episode (external_id, ${columns.join(', ')}) SELECT 't1b-copy', ${columns.join(', ')} FROM episode WHERE external_id = 't1b'`,
  ).run();
  db.prepare(
    `INSERT INTO episode (external_id, ${columns.join(', ')}) SELECT 't-none', ${columns.join(', ')} FROM episode WHERE run_id = ? LIMIT 1`,
  ).run(f.soloRunId);
  const copy = f.id('t1b-copy');
  const row = (): number | undefined =>
    repo.episodePage(query({}, true)).rows.find((r) => r.episode_id === copy)?.flags;
  assert.equal(row(), 1, 'the step-1 window covers the copy; the flags naming t1b do not');
  assert.equal(reference(null).get(copy), 1);
  const count = (): number =>
    db.prepare<{ n: number }>('SELECT count(*) AS n FROM episode_flag WHERE episode_id = ?').get(copy)?.n ?? -1;
  assert.equal(count(), 2, 'one row for its kind, one over every kind');
  db.prepare('DELETE FROM episode WHERE episode_id = ?').run(copy);
  assert.equal(count(), 0);
  db.prepare("DELETE FROM episode WHERE run_id = ? AND external_id = 't-none'").run(f.soloRunId);
});

test('a new audit replaces the counts; a filtered total past the count-ahead window is a lower bound', () => {
  const audit = new AuditRepository(f.store.db);
  audit.replaceFlags(f.teamRunId, [
    { kind: 'silent', agent: 'verifier', scope: 'episode', episode: 't2a', evidence: {} },
  ]);
  const flagged = repo.episodePage(query({}, true)).rows.filter((r) => r.flags > 0);
  assert.deepEqual(
    flagged.map((r) => [r.external_id, r.flags]),
    [['t2a', 1]],
  );
  const shortSight = new DashboardRepository(f.store.db, 1);
  const capped = shortSight.episodePage(query({ rewardMax: 1 }, false, 1, 2, 'step'));
  const exact = repo.episodePage(query({ rewardMax: 1 }, false, 1, 2, 'step'));
  assert.ok(exact.total > 4, 'more matches than offset + limit + 1');
  assert.deepEqual([capped.total, capped.totalIsLowerBound, capped.rows], [4, true, exact.rows]);
  assert.equal(exact.totalIsLowerBound, false);
  assert.deepEqual(
    [
      shortSight.episodePage(query({}, false, 0, 2, 'step')).totalIsLowerBound,
      repo.episodePage(query({}, false)).total,
    ],
    [false, 7],
    'without filters the total is exact',
  );
  audit.replaceFlags(f.teamRunId, flags);
});
