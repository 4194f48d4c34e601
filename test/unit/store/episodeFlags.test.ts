import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AuditFlag } from '../../../src/core/auditReport';
import { AuditRepository } from '../../../src/store/auditRepository';
import { DashboardRepository, type EpisodePageQuery } from '../../../src/store/dashboardRepository';
import { BrowseRepository } from '../../../src/store/browseRepository';
import { episodeFlagCounts } from '../../../src/store/flagBadges';
import { InsertedAggregates } from '../../../src/store/insertedAggregates';
import { teamEpisodes, viewFixture, type ViewFixture } from '../engine/views/viewFixture';

let f: ViewFixture;
let repo: DashboardRepository;
let browse: BrowseRepository;

const at = (episode: string): { uri: string; line: number; episode: string } => ({
  uri: 'team/a.jsonl',
  line: 1,
  episode,
});

// A run-wide window, step windows, episode flags naming an episode, and one listing four (t1b twice;
// t-later is indexed by a test after the audit).
const flags: AuditFlag[] = [
  { kind: 'decoupling', agent: 'solver', scope: 'run', steps: [1, 3], evidence: {} },
  { kind: 'idle', agent: 'verifier', scope: 'step', steps: [1, 1], evidence: {} },
  { kind: 'free-rider', agent: 'planner', scope: 'step', steps: [2, 3], evidence: {} },
  { kind: 'silent', agent: 'verifier', scope: 'episode', episode: 't1b', evidence: {} },
  {
    kind: 'silent',
    agent: 'planner',
    scope: 'episode',
    episode: 't1b',
    locations: [at('t1b'), at('t2a'), at('t-none'), at('t-later')],
    evidence: {},
  },
  { kind: 'idle', agent: 'solver', scope: 'episode', episode: 't-none', evidence: {} },
  { kind: 'dominant', agent: 'solver', scope: 'run', evidence: {} },
];

before(async () => {
  f = await viewFixture();
  repo = new DashboardRepository(f.store.db);
  browse = new BrowseRepository(f.store.db);
  new AuditRepository(f.store.db).replaceFlags(f.teamRunId, flags);
});

after(() => f.store.close());

/** The oracle, from the flags themselves: per episode id, the episode-scope flags naming or listing it (of one kind). */
function reference(kind: string | null, of: readonly AuditFlag[] = flags): Map<number, number> {
  const counts = new Map<number, number>();
  for (const e of teamEpisodes) {
    const about = of.filter(
      (x) =>
        x.scope === 'episode' &&
        (kind === null || x.kind === kind) &&
        (x.episode === e.id || (x.locations ?? []).some((l) => l.episode === e.id)),
    );
    counts.set(f.id(e.id), about.length);
  }
  return counts;
}

const query = (
  filter: EpisodePageQuery['filter'],
  descending: boolean,
  offset = 0,
  limit = 50,
  key: EpisodePageQuery['sort']['key'] = 'flags',
): EpisodePageQuery => ({ runId: f.teamRunId, filter, sort: { key, descending }, offset, limit });

test('the stored counts equal the flags about each episode (an oracle from the flags), per kind and over every kind', () => {
  const every = reference(null);
  assert.ok(
    [...every.values()].some((n) => n >= 2),
    'the fixture has an episode under several flags',
  );
  const page = repo.episodePage(query({}, true));
  assert.deepEqual(new Map(page.rows.map((r) => [r.episodeId, r.flags])), every);
  for (const kind of ['idle', 'free-rider', 'silent', 'dominant']) {
    const covered = [...reference(kind)].filter(([, n]) => n > 0).map(([id]) => id);
    const filtered = repo.episodePage(query({ flag: kind }, false, 0, 50, 'step'));
    assert.deepEqual(
      [filtered.total, filtered.rows.map((r) => r.episodeId).sort((a, b) => a - b)],
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
      const sorted = [...whole].sort((a, b) => sign * (a.flags - b.flags || a.episodeId - b.episodeId));
      assert.deepEqual(whole, sorted, JSON.stringify(filter));
      for (let offset = 0; offset <= whole.length; offset++) {
        const page = repo.episodePage(query(filter, descending, offset, 2)).rows;
        assert.deepEqual(page, whole.slice(offset, offset + 2), `${JSON.stringify(filter)} offset ${String(offset)}`);
      }
    }
  }
});

test('an episode indexed after the audit counts the flags about it, not the window on its step; a deleted one loses its rows', () => {
  const db = f.store.db;
  const columns = db
    .prepare<{ name: string }>('SELECT name FROM pragma_table_info(?)')
    .all('episode')
    .map((c) => c.name)
    .filter((c) => c !== 'episode_id' && c !== 'external_id');
  db.prepare(
    `INSERT INTO episode (external_id, ${columns.join(', ')}) SELECT 't-later', ${columns.join(', ')} FROM episode WHERE external_id = 't1b'`,
  ).run();
  const later = f.id('t-later');
  const aggregates = new InsertedAggregates(db); // what the index writer runs at the end of the batch
  aggregates.add(later);
  aggregates.flush();
  const row = (): number | undefined =>
    repo.episodePage(query({}, true)).rows.find((r) => r.episodeId === later)?.flags;
  assert.equal(row(), 1, "the planner's silent flag lists it; the step-1 window and the flag naming t1b do not count");
  assert.equal(episodeFlagCounts(db, f.teamRunId, ['t-later']).get('t-later'), 1);
  const count = (): number =>
    db.prepare<{ n: number }>('SELECT count(*) AS n FROM episode_flag WHERE episode_id = ?').get(later)?.n ?? -1;
  assert.equal(count(), 2, 'one row for its kind, one over every kind');
  db.prepare('DELETE FROM episode WHERE episode_id = ?').run(later);
  assert.equal(count(), 0);
});

test("the table's flag column, its flags sort and filter, and the tree's badges count the same flags", () => {
  const page = repo.episodePage(query({}, true)).rows;
  const badges = episodeFlagCounts(
    f.store.db,
    f.teamRunId,
    page.map((r) => r.externalId),
  );
  assert.deepEqual(
    page.map((r) => [r.externalId, r.flags]),
    page.map((r) => [r.externalId, badges.get(r.externalId)]),
  );
  const tree = new Map(
    [1, 2, 3, null].flatMap((step) =>
      browse
        .groups(f.teamRunId, step)
        .flatMap((g) => browse.episodes(f.teamRunId, step, g.group, 50).map((e) => [e.externalId, e.flags] as const)),
    ),
  );
  assert.deepEqual(new Map(page.map((r) => [r.externalId, r.flags])), tree);
  // The run-wide window and the step windows mark no episode: only t1b, t2a and t-none are flagged.
  assert.deepEqual(
    page.filter((r) => r.flags > 0).map((r) => [r.externalId, r.flags]),
    [
      ['t-none', 2],
      ['t1b', 2],
      ['t2a', 1],
    ],
  );
  const filtered = repo.episodePage(query({ flag: 'any' }, false, 0, 50, 'step')).rows;
  assert.deepEqual(filtered.map((r) => r.externalId).sort(), ['t-none', 't1b', 't2a']);
  assert.deepEqual(
    browse.steps(f.teamRunId).map((s) => [s.step, s.flags]),
    [
      [null, 2],
      [1, 4],
      [2, 3],
      [3, 2],
    ],
    'steps count their windows (the run-wide one too) and the flags about their episodes',
  );
});

test('a new audit replaces the counts; a filtered total past the count-ahead window is a lower bound', () => {
  const audit = new AuditRepository(f.store.db);
  audit.replaceFlags(f.teamRunId, [
    { kind: 'silent', agent: 'verifier', scope: 'episode', episode: 't2a', evidence: {} },
  ]);
  const flagged = repo.episodePage(query({}, true)).rows.filter((r) => r.flags > 0);
  assert.deepEqual(
    flagged.map((r) => [r.externalId, r.flags]),
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
