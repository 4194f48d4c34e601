import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AuditRepository } from '../../../src/store/auditRepository';
import { episodeFlagCounts } from '../../../src/store/flagBadges';
import { demoIndex, type DemoIndex } from '../extension/tree/demoIndex';

let index: DemoIndex;

const routedUri = (step: number): string => `routed-experts/rollouts/step_000${step}.jsonl`;

before(async () => {
  index = await demoIndex();
  // The routed run: a decoupling window over every step (the run-wide case) and a silent agent in
  // three episodes of two steps, located at the first and listing all three.
  new AuditRepository(index.store.db).replaceFlags(index.routedRunId, [
    { kind: 'decoupling', agent: 'fast', scope: 'run', steps: [1, 3], evidence: { rewardRho: 0.6 } },
    {
      kind: 'silent',
      agent: 'careful',
      scope: 'episode',
      episode: 's1-g0-r0',
      location: { uri: routedUri(1), line: 1 },
      locations: [
        { uri: routedUri(1), line: 1, episode: 's1-g0-r0' },
        { uri: routedUri(1), line: 2, episode: 's1-g0-r1' },
        { uri: routedUri(2), line: 4, episode: 's2-g1-r0' },
      ],
      evidence: { silentEpisodes: 3, declaredEpisodes: 18 },
    },
  ]);
});

after(() => {
  index.store.close();
});

test('a run-wide window badges the run and every step, but no group or episode row', () => {
  const run = index.browse.runs().find((r) => r.runId === index.routedRunId);
  assert.equal(run?.flags, 2);
  // Steps 1 and 2 hold silent episodes too; the silent flag counts once per step, not per episode.
  assert.deepEqual(
    index.browse.steps(index.routedRunId).map((s) => [s.step, s.flags]),
    [
      [1, 2],
      [2, 2],
      [3, 1],
    ],
  );
  assert.deepEqual(
    index.browse.groups(index.routedRunId, 3).map((g) => g.flags),
    [0, 0],
  );
  assert.deepEqual(
    index.browse.episodes(index.routedRunId, 3, 's3-g0', 10).map((e) => e.flags),
    [0, 0, 0],
  );
});

test('an episode-scope flag badges every episode its locations list, and their groups', () => {
  assert.deepEqual(
    index.browse.episodes(index.routedRunId, 1, 's1-g0', 10).map((e) => [e.externalId, e.flags]),
    [
      ['s1-g0-r0', 1],
      ['s1-g0-r1', 1],
      ['s1-g0-r2', 0],
    ],
  );
  assert.deepEqual(
    index.browse.groups(index.routedRunId, 1).map((g) => [g.group, g.flags]),
    [
      ['s1-g0', 1],
      ['s1-g1', 0],
    ],
  );
  assert.deepEqual(
    index.browse.groups(index.routedRunId, 2).map((g) => [g.group, g.flags]),
    [
      ['s2-g0', 0],
      ['s2-g1', 1],
    ],
  );
});

test('episodeFlagCounts() gives the flags about each listed episode, leaving out ids the run lacks', () => {
  const counts = episodeFlagCounts(index.store.db, index.routedRunId, ['s1-g0-r1', 's1-g0-r2', 's2-g1-r0', 'nope']);
  assert.deepEqual(
    [...counts],
    [
      ['s1-g0-r1', 1],
      ['s1-g0-r2', 0],
      ['s2-g1-r0', 1],
    ],
  );
  assert.deepEqual(
    [...episodeFlagCounts(index.store.db, index.teamRunId, ['s1-g1-r2', 's3-g0-r0'])],
    [
      ['s1-g1-r2', 1],
      ['s3-g0-r0', 0],
    ],
  );
  assert.deepEqual([...episodeFlagCounts(index.store.db, index.routedRunId, [])], []);
});

test('unreadable evidence JSON counts the flag at the episode it names, and does not throw', () => {
  const db = index.store.db;
  db.prepare(
    "INSERT INTO flag (run_id, scope_kind, scope_id, kind, evidence_json, computed_at) VALUES (?, 'episode', 's3-g1-r0', 'silent', '{not json', 'now')",
  ).run(index.routedRunId);
  assert.equal(episodeFlagCounts(db, index.routedRunId, ['s3-g1-r0']).get('s3-g1-r0'), 1);
  db.prepare("DELETE FROM flag WHERE run_id = ? AND evidence_json = '{not json'").run(index.routedRunId);
});

test('stored flags carry their run, the steps of a run-wide window and the episode of each listed line', () => {
  const [decoupling, silent] = index.browse.flags(index.routedRunId);
  assert.deepEqual(
    [decoupling?.kind, decoupling?.runId, decoupling?.scope, decoupling?.steps],
    ['decoupling', index.routedRunId, 'run', [1, 3]],
  );
  assert.deepEqual(
    silent?.locations?.map((l) => l.episode),
    ['s1-g0-r0', 's1-g0-r1', 's2-g1-r0'],
  );
});
