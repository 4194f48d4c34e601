import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DashboardRepository, dashboardQueries, episodePageQueries } from '../../../src/store/dashboardRepository';
import { agentCredit, insertCredit, viewFixture, type ViewFixture } from '../engine/views/viewFixture';
import { planParams, queryPlan } from './queryPlan';

let f: ViewFixture;
let repo: DashboardRepository;

before(async () => {
  f = await viewFixture();
  repo = new DashboardRepository(f.store.db);
});

after(() => f.store.close());

const plan = (sql: string): string[] => queryPlan(f.store.db, sql, planParams);

test('the overview aggregates read episodes through episode_step and agent credit through a covering index', () => {
  const credit = plan(dashboardQueries.creditByStep);
  assert.ok(
    credit.includes('SEARCH e USING COVERING INDEX episode_step (run_id=? AND train_step>?)'),
    credit.join(' | '),
  );
  assert.ok(
    credit.includes('SEARCH c USING COVERING INDEX credit_agent_value (set_id=? AND episode_id=?)'),
    credit.join(' | '),
  );
  assert.ok(
    credit.includes(
      'SEARCH c USING COVERING INDEX credit_agent_value (set_id=? AND episode_id=? AND agent_id=? AND value>?)',
    ),
    credit.join(' | '),
  );
  // The only scan: roster rows, to find the few silent agents (no index on n_messages, and none needed).
  assert.deepEqual(
    credit.filter((d) => d.startsWith('SCAN ') && !d.startsWith('SCAN (') && d !== 'SCAN parts'),
    ['SCAN ea'],
  );
  // The set written last: credit_set's rows of the method, each with one seek for a row (migration 0023).
  assert.match(
    plan(dashboardQueries.latestParams).join(' | '),
    /^SEARCH s USING INDEX sqlite_autoindex_credit_set_1 \(method=\?\) .*SEARCH v EXISTS USING COVERING INDEX credit_agent_value \(set_id=\?\)/,
  );
  // Steps and the aggregates of migration 0011 read rows per step and agent of the run, never its episodes.
  assert.deepEqual(plan(dashboardQueries.steps), [
    'SEARCH e USING PRIMARY KEY (run_id=?)',
    'USE TEMP B-TREE FOR GROUP BY',
  ]);
  assert.deepEqual(plan(dashboardQueries.creditAggregate), [
    'SEARCH e USING PRIMARY KEY (run_id=? AND method=? AND params_hash=? AND epsilon=?)',
    'USE TEMP B-TREE FOR GROUP BY',
  ]);
  assert.deepEqual(plan(dashboardQueries.sharedAggregate), [
    'SEARCH e USING PRIMARY KEY (run_id=? AND epsilon=?)',
    'USE TEMP B-TREE FOR GROUP BY',
  ]);
  const coverage = plan(dashboardQueries.coverageAggregate);
  assert.ok(!coverage.some((d) => d.startsWith('SCAN ')), coverage.join(' | '));
  assert.ok(
    plan(dashboardQueries.sharedByStep).includes(
      'SEARCH e USING COVERING INDEX episode_step (run_id=? AND train_step>?)',
    ),
  );
  assert.ok(!plan(dashboardQueries.runs).some((d) => /^SCAN (e|episode|ea)\b/.test(d)));
});

test('a live-tail delta reads only the steps it names, one episode_step seek each, and finds them by rowid', () => {
  for (const name of ['creditByStepOnly', 'sharedByStepOnly'] as const) {
    const p = plan(dashboardQueries[name]);
    assert.ok(!p.some((d) => /^SCAN (e|episode|ea|c|credit)\b/.test(d)), `${name}: ${p.join(' | ')}`);
    assert.ok(
      p.some((d) => /^SEARCH e USING (COVERING )?INDEX episode_step \(run_id=\? AND train_step=\?/.test(d)),
      `${name}: ${p.join(' | ')}`,
    );
  }
  assert.ok(plan(dashboardQueries.stepsAfter).includes('SEARCH episode USING INTEGER PRIMARY KEY (rowid>?)'));
  assert.deepEqual(
    repo.stepsAfter(f.teamRunId, 0),
    repo.steps(f.teamRunId).map((s) => s.step),
  );
  assert.deepEqual(repo.stepsAfter(f.teamRunId, repo.watermark()), []);
  assert.deepEqual(
    repo.steps(f.teamRunId, undefined, [2]),
    repo.steps(f.teamRunId).filter((s) => s.step === 2),
  );
});

test('episode pages never scan the episode table; reward and external-id pages need no sort, step pages sort within a step', () => {
  for (const [key, sql] of episodePageQueries) {
    if (key.startsWith('flags:unflagged:')) continue;
    const p = plan(sql);
    assert.ok(!p.some((d) => /^SCAN (e|episode|credit)\b/.test(d)), `${key}: ${p.join(' | ')}`);
  }
  for (const key of [
    'reward:asc:set',
    'reward:desc:set',
    'externalId:asc:set',
    'externalId:desc:set',
    'messages:asc:set',
    'messages:desc:set',
  ]) {
    const p = plan(episodePageQueries.get(key) ?? '');
    assert.ok(
      !p.some((d) => d.startsWith('USE TEMP B-TREE FOR') && d.endsWith('ORDER BY')),
      `${key}: ${p.join(' | ')}`,
    );
  }
  assert.ok(
    plan(episodePageQueries.get('reward:desc:set') ?? '').includes('SEARCH e USING INDEX episode_outcome (run_id=?)'),
  );
  const stepPlan = plan(episodePageQueries.get('step:asc:set') ?? '');
  assert.ok(stepPlan.includes('USE TEMP B-TREE FOR LAST 3 TERMS OF ORDER BY'), stepPlan.join(' | '));
});

test('the page sorted by flags reads flagged episodes by count from episode_flag_rank and the rest in id order', () => {
  for (const dir of ['asc', 'desc']) {
    const flagged = plan(episodePageQueries.get(`flags:flagged:${dir}:set`) ?? '');
    assert.ok(
      flagged.includes('SEARCH ef USING COVERING INDEX episode_flag_rank (run_id=? AND kind=?)'),
      flagged.join(' | '),
    );
    const rest = plan(episodePageQueries.get(`flags:unflagged:${dir}:set`) ?? '');
    // Only the outer query sorts (the page's own rows); the part itself is read in rowid order.
    assert.equal(rest.filter((d) => d.startsWith('USE TEMP B-TREE')).length, 1, rest.join(' | '));
    assert.ok(rest.includes('SCAN e') && rest.at(-1) === 'USE TEMP B-TREE FOR ORDER BY', rest.join(' | '));
    for (const p of [flagged, rest]) assert.ok(!p.some((d) => d.includes('step_cover') || d.includes('flag f')));
  }
  const counted = plan(episodePageQueries.get('count:flagged:set') ?? '');
  assert.ok(counted[1]?.startsWith('SEARCH ef USING COVERING INDEX episode_flag_rank'), counted.join(' | '));
  const matches = plan(episodePageQueries.get('count:matches:none') ?? '');
  assert.ok(
    matches.some((d) => d.startsWith('SCAN episode_fts VIRTUAL TABLE')),
    matches.join(' | '),
  );
});

test('latestParams() picks the set written last; creditByStep() leaves silent agents out of the idle counts', () => {
  assert.equal(repo.latestParams(f.teamRunId, 'loo'), undefined);
  insertCredit(f, agentCredit('t1b', [0, 0, 0], { hash: 'first', at: '2026-01-01T00:00:00.000Z' }));
  insertCredit(f, agentCredit('t1b', [0.5, 0.01, 0.01], { hash: 'second', at: '2026-01-02T00:00:00.000Z' }));
  assert.equal(repo.latestParams(f.teamRunId, 'loo'), 'second');
  assert.deepEqual(
    repo.creditByStep(f.teamRunId, 'loo', 'second', 0.02).map((r) => [r.step, r.agentId, r.mean, r.spoke, r.idle]),
    [
      [1, f.agentId('planner'), 0.5, 1, 0],
      [1, f.agentId('solver'), 0.01, 1, 1],
      [1, f.agentId('verifier'), 0.01, 0, 0],
    ],
  );
});
