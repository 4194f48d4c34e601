import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { browseQueries } from '../../../src/store/browseRepository';
import { demoIndex, teamUri, type DemoIndex } from '../extension/tree/demoIndex';
import { queryPlan } from './queryPlan';

let index: DemoIndex;

before(async () => {
  index = await demoIndex();
});

after(() => {
  index.store.close();
});

test('runs() lists every run with its totals and flag count', () => {
  assert.deepEqual(
    index.browse.runs().map((r) => [r.name, r.root, r.mechanism, r.episodes, r.steps, r.flags]),
    [
      ['planner-solver-verifier', 'planner-solver-verifier', 'pipeline', 18, 3, 2],
      ['routed-experts', 'routed-experts', 'routed', 18, 3, 0],
    ],
  );
  const team = index.browse.runs()[0];
  assert.ok(
    team?.meanReward !== null && team?.meanReward !== undefined && team.meanReward >= 0 && team.meanReward <= 1,
  );
});

test('steps() counts episodes, groups and the flags covering each step', () => {
  const steps = index.browse.steps(index.teamRunId);
  assert.deepEqual(
    steps.map((s) => [s.step, s.episodes, s.groups, s.flags]),
    [
      [1, 6, 2, 1],
      [2, 6, 2, 1],
      [3, 6, 2, 1],
    ],
  );
  assert.deepEqual(
    index.browse.steps(index.routedRunId).map((s) => s.flags),
    [0, 0, 0],
  );
  assert.deepEqual(index.browse.steps(999), []);
});

test('groups() count only the flags about their episodes: a step window badges the step, not its groups', () => {
  assert.deepEqual(
    index.browse.groups(index.teamRunId, 1).map((g) => [g.group, g.episodes, g.flags]),
    [
      ['s1-g0', 3, 0],
      ['s1-g1', 3, 1],
    ],
  );
  assert.deepEqual(
    index.browse.groups(index.teamRunId, 2).map((g) => [g.group, g.flags]),
    [
      ['s2-g0', 0],
      ['s2-g1', 0],
    ],
  );
  assert.deepEqual(index.browse.groups(index.teamRunId, null), []);
});

test('episodes() gives rewards, roster sizes, trace lines and the flags about each, up to the limit', () => {
  const episodes = index.browse.episodes(index.teamRunId, 1, 's1-g1', 10);
  assert.deepEqual(
    episodes.map((e) => [e.externalId, e.sample, e.agents, e.uri, e.line, e.flags]),
    [
      ['s1-g1-r0', 0, 3, teamUri(1), 4, 0],
      ['s1-g1-r1', 1, 3, teamUri(1), 5, 0],
      ['s1-g1-r2', 2, 3, teamUri(1), 6, 1],
    ],
  );
  assert.ok(episodes.every((e) => e.reward === 0 || e.reward === 1));
  assert.deepEqual(
    index.browse.episodes(index.teamRunId, 3, 's3-g0', 2).map((e) => [e.externalId, e.flags]),
    [
      ['s3-g0-r0', 0],
      ['s3-g0-r1', 0],
    ],
  );
  assert.deepEqual(
    index.browse.episodes(index.routedRunId, 1, 's1-g0', 10).map((e) => e.agents),
    [2, 2, 2],
  );
});

test('flags() returns the stored flags with agent, steps, evidence and location', () => {
  const flags = index.browse.flags(index.teamRunId);
  assert.deepEqual(
    flags.map((f) => [f.kind, f.agent, f.scope, f.scopeId, f.steps, f.score, f.location]),
    [
      ['free-rider', 'verifier', 'step', '2..3', [2, 3], 2, { uri: teamUri(2), line: 1 }],
      ['silent', 'verifier', 'episode', 's1-g1-r2', null, null, { uri: teamUri(1), line: 6 }],
    ],
  );
  assert.deepEqual(flags[0]?.evidence, { meanCredit: 0.001, meanReward: 0.8, score: 2 });
  assert.deepEqual(index.browse.flags(index.routedRunId), []);
});

test('flags() tolerates missing or malformed evidence', () => {
  const db = index.store.db;
  db.prepare(
    "INSERT INTO flag (run_id, scope_kind, scope_id, kind, evidence_json, computed_at) VALUES (?, 'run', '', 'dominant', ?, 'now')",
  ).run(index.routedRunId, '{not json');
  db.prepare(
    "INSERT INTO flag (run_id, scope_kind, scope_id, kind, evidence_json, computed_at) VALUES (?, 'run', '', 'idle', ?, 'now')",
  ).run(index.routedRunId, '{"location":{"uri":3}}');
  assert.deepEqual(
    index.browse.flags(index.routedRunId).map((f) => [f.kind, f.agent, f.evidence, f.location]),
    [
      ['dominant', null, {}, null],
      ['idle', null, {}, null],
    ],
  );
  db.prepare('DELETE FROM flag WHERE run_id = ?').run(index.routedRunId);
});

test('parseErrors() lists unreadable lines with their file', () => {
  const errors = index.browse.parseErrors();
  assert.deepEqual(
    errors.map((e) => [e.uri, e.line]),
    [['routed-experts/rollouts/step_0002.jsonl', 7]],
  );
  assert.match(errors[0]?.reason ?? '', /invalid JSON/);
  assert.deepEqual(index.browse.parseErrors(0), []);
});

test('stepRanges(), stepsInRange(), noStep() and stepSpan() cover the steps in aligned ranges', () => {
  const ranges = index.browse.stepRanges(index.teamRunId, 2, 1, 3);
  assert.deepEqual(
    ranges.map((r) => [r.from, r.to, r.steps, r.episodes, r.flags]),
    [
      [0, 1, 1, 6, 1],
      [2, 3, 2, 12, 1],
    ],
  );
  const steps = index.browse.steps(index.teamRunId);
  const mean = (list: typeof steps) =>
    list.reduce((n, s) => n + (s.meanReward ?? 0) * s.episodes, 0) / list.reduce((n, s) => n + s.episodes, 0);
  assert.ok(Math.abs((ranges[1]?.meanReward ?? NaN) - mean(steps.slice(1))) < 1e-9);
  assert.deepEqual(index.browse.stepsInRange(index.teamRunId, 2, 3), steps.slice(1));
  assert.deepEqual(
    index.browse.stepRanges(index.teamRunId, 2, 3, 3).map((r) => [r.from, r.to, r.steps]),
    [[2, 3, 1]],
  );
  assert.deepEqual(index.browse.stepSpan(index.teamRunId), { from: 1, to: 3 });
  assert.equal(index.browse.noStep(index.teamRunId), undefined);
  assert.equal(index.browse.stepSpan(9999), undefined);
  const all = index.browse.episodes(index.teamRunId, 1, 's1-g0', 10).map((e) => e.externalId);
  assert.deepEqual(
    index.browse.episodes(index.teamRunId, 1, 's1-g0', 2, 1).map((e) => e.externalId),
    all.slice(1, 3),
  );
});

test('the step, group and episode listings read episodes through an index', () => {
  for (const [name, sql] of Object.entries(browseQueries)) {
    const plan = queryPlan(index.store.db, sql, {
      run: 1,
      step: 1,
      group: 'g',
      limit: 5,
      offset: 0,
      from: 0,
      to: 9,
      width: 5,
    });
    const episodeReads = plan.filter((d) => /^(SCAN|SEARCH) (episode|e)\b/.test(d));
    assert.ok(episodeReads.length > 0, `${name}: ${plan.join(' | ')}`);
    for (const read of episodeReads) assert.match(read, /^SEARCH .* USING (COVERING )?INDEX /, `${name}: ${read}`);
    assert.ok(
      plan.some((d) => /USING (COVERING )?INDEX episode_step \(run_id=\?/.test(d)),
      `${name}: ${plan.join(' | ')}`,
    );
  }
  const groups = queryPlan(index.store.db, browseQueries.groups, { run: 1, step: 1 });
  assert.ok(groups.includes('SEARCH episode USING INDEX episode_step (run_id=? AND train_step=?)'), groups.join(' | '));
});
