import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { EpisodeFacts } from '../../../../src/engine/audit/auditFacts';
import { stepTrends } from '../../../../src/engine/audit/stepTrends';
import { DashboardViewService } from '../../../../src/engine/views/dashboardViewService';
import type { EpisodeFilter, EpisodeQuery, EpisodeSortKey } from '../../../../src/engine/views/viewTypes';
import { AuditRepository } from '../../../../src/store/auditRepository';
import {
  agentCredit,
  agents,
  clearCredit,
  insertCredit,
  teamEpisodes,
  viewFixture,
  type ViewFixture,
} from './viewFixture';

let f: ViewFixture;
let service: DashboardViewService;

before(async () => {
  f = await viewFixture();
  service = new DashboardViewService(f.store.db, f.root);
});

after(() => f.store.close());

beforeEach(() => clearCredit(f));

/** LOO values per team episode (planner, solver, verifier); t1b's verifier is silent, t-long and t3b have none. */
const loo: Readonly<Record<string, readonly (number | null)[]>> = {
  t1a: [0.6, 0.3, 0.1],
  t1b: [0.5, 0.25, 0.01],
  t2a: [0.4, -0.2, 0],
  t2b: [0.1, 0.3, 0.015],
  't-none': [1, 1, 1],
};

function seedLoo(): void {
  insertCredit(
    f,
    Object.entries(loo).flatMap(([id]) => agentCredit(id, [9, 9, 9], { hash: 'old', at: '2026-01-01T00:00:00.000Z' })),
  );
  insertCredit(
    f,
    Object.entries(loo).flatMap(([id, values]) =>
      agentCredit(id, values, { hash: 'new', at: '2026-02-01T00:00:00.000Z' }),
    ),
  );
}

function seedFlags(): void {
  new AuditRepository(f.store.db).replaceFlags(f.teamRunId, [
    { kind: 'idle', agent: 'verifier', scope: 'step', steps: [1, 1], evidence: {} },
    { kind: 'free-rider', agent: 'planner', scope: 'step', steps: [2, 3], evidence: {} },
    { kind: 'silent', agent: 'verifier', scope: 'episode', episode: 't1b', evidence: {} },
    { kind: 'dominant', agent: 'solver', scope: 'run', evidence: {} },
  ]);
}

/** The same data as the audit sees it (steps logged only). */
function facts(): EpisodeFacts[] {
  return teamEpisodes.flatMap((e): EpisodeFacts[] => {
    if (e.step === undefined) return [];
    const values = loo[e.id] ?? [];
    return [
      {
        externalId: e.id,
        step: e.step,
        reward: e.reward ?? null,
        uri: '',
        line: 0,
        agents: e.agents.map((a, i) => ({
          name: a.name,
          declared: true,
          messages: e.messages.filter((m) => m.agent === a.name).length,
          tokens: 0,
          credit: values[i] ?? null,
          emptyMessages: null,
          creditStatus: 'exact',
          kind: 'llm',
          trainable: true,
          copiedMessages: null,
          finalAnswerFirst: null,
        })),
      },
    ];
  });
}

/** Column `step` of a matrix, by agent. */
function column(
  m: { rows: readonly string[]; cols: readonly number[]; values: readonly (number | null)[] },
  step: number,
): (number | null)[] {
  const c = m.cols.indexOf(step);
  return m.rows.map((_, r) => m.values[r * m.cols.length + c] ?? null);
}

test('runs() lists runs by root with roster agents, step range, flag count and whether a router is logged', () => {
  seedFlags();
  assert.deepEqual(service.runs(), [
    {
      runId: f.soloRunId,
      name: 'solo',
      mechanism: 'pipeline',
      episodes: 1,
      agents: ['alone'],
      steps: { min: 1, max: 1, count: 1 },
      flags: 0,
      routingLogged: false,
    },
    {
      runId: f.teamRunId,
      name: 'team',
      mechanism: 'pipeline',
      episodes: 7,
      agents: [...agents],
      steps: { min: 1, max: 3, count: 3 },
      flags: 4,
      routingLogged: false,
    },
  ]);
});

test('overview() aggregates the latest parameter set per step; steps without a step number are left out', () => {
  seedLoo();
  const o = service.overview(f.teamRunId, 'loo', 0.02);
  assert.deepEqual(
    [o.status, o.steps, o.episodes, o.teamReward, o.epsilon],
    ['computed', [1, 2, 3], [2, 2, 2], [0.5, 0.75, 0.5], 0.02],
  );
  assert.deepEqual(o.meanCredit.rows, [...agents]);
  const close = (a: readonly (number | null)[], b: readonly (number | null)[]): void =>
    assert.ok(
      a.every((v, i) => (v === null ? b[i] === null : Math.abs(v - (b[i] ?? NaN)) < 1e-12)),
      `${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`,
    );
  close(column(o.meanCredit, 1), [0.55, 0.275, 0.055]);
  close(column(o.meanCredit, 2), [0.25, 0.05, 0.0075]);
  assert.deepEqual(column(o.meanCredit, 3), [null, null, null]);
});

test('overview() credit share and idle rate equal the audit step trends for the same data', () => {
  seedLoo();
  const o = service.overview(f.teamRunId, 'loo', 0.02);
  const trends = stepTrends(facts(), [...agents], [], 0.02);
  assert.deepEqual(
    trends.map((t) => t.step),
    o.steps,
  );
  for (const t of trends) {
    assert.deepEqual(
      column(o.creditShare, t.step),
      agents.map((a) => t.agents[a]?.creditShare ?? null),
      `share at step ${String(t.step)}`,
    );
    assert.deepEqual(
      column(o.idleRate, t.step),
      agents.map((a) => t.agents[a]?.idleRate ?? null),
      `idle at step ${String(t.step)}`,
    );
  }
  // The silent verifier of t1b (|0.01| ≤ ε) does not count; at step 2 it spoke and idled twice.
  assert.deepEqual(column(o.idleRate, 1), [0, 0, 0]);
  assert.deepEqual(column(o.idleRate, 2), [0, 0, 1]);
  const shares = column(o.creditShare, 2);
  assert.ok(Math.abs((shares[0] ?? 0) + (shares[1] ?? 0) + (shares[2] ?? 0) - 1) < 1e-12);
});

test('overview() counts the flags of each agent covering each step and draws step flags as windows', () => {
  seedFlags();
  const o = service.overview(f.teamRunId, 'loo', 0.02);
  assert.deepEqual(
    agents.map((_, r) => o.flagCounts.values.slice(r * 3, r * 3 + 3)),
    [
      [0, 1, 1],
      [1, 1, 1],
      [2, 0, 0],
    ],
  );
  assert.deepEqual(
    o.windows.map((w) => [w.kind, w.agent, w.from, w.to]),
    [
      ['free-rider', 'planner', 2, 3],
      ['idle', 'verifier', 1, 1],
    ],
  );
  assert.deepEqual(
    o.flags.map((x) => x.kind),
    ['dominant', 'free-rider', 'idle', 'silent'],
  );
  assert.equal(o.flags[0]?.summary, 'solver holds almost all of the positive credit (the whole run)');
});

test('overview() status: not-computed or failed without rows; shared derived from the team reward', () => {
  const none = service.overview(f.teamRunId, 'shapley', 0.02);
  assert.deepEqual(
    [none.status, none.steps, column(none.meanCredit, 1)],
    ['not-computed', [1, 2, 3], [null, null, null]],
  );
  f.store.db
    .prepare(
      "INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, computed_at) VALUES (?, ?, 'shapley', 'h', 'no values', 'now')",
    )
    .run(f.teamRunId, f.id('t1a'));
  assert.equal(service.overview(f.teamRunId, 'shapley', 0.02).status, 'failed');
  const shared = service.overview(f.teamRunId, 'shared', 0.02);
  assert.equal(shared.status, 'computed');
  assert.deepEqual(column(shared.meanCredit, 1), [0.5, 0.5, 0.5]);
  assert.deepEqual(column(shared.meanCredit, 3), [0.5, 0.5, 1]);
  assert.deepEqual(
    column(shared.idleRate, 1),
    [0.5, 0.5, 0],
    't1b (R = 0): planner and solver spoke, the verifier did not',
  );
  assert.deepEqual(column(shared.creditShare, 3), [0.25, 0.25, 0.5]);
});

test('overview() draws only exact or estimated credit and counts what it leaves out, with the reason and the remedy', () => {
  insertCredit(f, [
    ...agentCredit('t1a', [0.2, 0.6, 0.2], { method: 'owen', hash: 'o1' }),
    ...agentCredit('t2a', [0.9, 0.1, 0], { method: 'owen', hash: 'o1', approximate: true }),
  ]);
  const unidentified = f.store.db.prepare(`
    INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, status, remedy, computed_at) VALUES (?, ?, 'owen', 'o1', ?, 'not-identifiable', ?, 'now')`);
  for (const id of ['t1b', 't3b'])
    unidentified.run(f.teamRunId, f.id(id), 'the checker cannot score this episode', 'log counterfactuals');
  const o = service.overview(f.teamRunId, 'owen', 0.02);
  assert.equal(o.status, 'computed');
  assert.deepEqual(o.coverage, {
    episodes: o.coverage.episodes,
    drawn: 1,
    approximate: 1,
    notIdentifiable: 2,
    failed: 0,
    reason: 'the checker cannot score this episode',
    remedy: 'log counterfactuals',
  });
  assert.deepEqual(column(o.meanCredit, 2), [null, null, null], 'the approximate episode of step 2 is not drawn');
  assert.deepEqual(column(o.meanCredit, 1), [0.2, 0.6, 0.2]);
  // Colour: the run's reward span, the same for every method; t1b (step 1) and t3b (step 3) are not identifiable.
  assert.deepEqual(o.colour, { domain: { bound: 1, reward: { min: 0, max: 1 } }, unidentifiedSteps: [1, 3] });
  assert.deepEqual(service.overview(f.teamRunId, 'shared', 0.02).colour.domain, o.colour.domain);
  // Nothing drawable at all: the status says not identifiable, not computed.
  insertCredit(f, agentCredit('t1a', [0.5, 0.5, 0], { method: 'prefix', hash: 'p1', approximate: true }));
  assert.equal(service.overview(f.teamRunId, 'prefix', 0.02).status, 'not-identifiable');
});

const page = (
  filter: EpisodeFilter = {},
  key: EpisodeSortKey = 'step',
  descending = false,
  offset = 0,
  limit = 50,
  runId = f.teamRunId,
) => service.episodes({ runId, filter, sort: { key, descending }, offset, limit } satisfies EpisodeQuery);
const ids = (p: ReturnType<typeof page>): string[] => p.rows.map((r) => r.externalId);

test('episodes() sorts by each key in both directions with the episode id as tiebreak', () => {
  seedFlags();
  assert.deepEqual(ids(page({}, 'step')), ['t-none', 't1a', 't1b', 't2a', 't2b', 't-long', 't3b']);
  assert.deepEqual(ids(page({}, 'step', true)), ['t3b', 't-long', 't2b', 't2a', 't1b', 't1a', 't-none']);
  assert.deepEqual(ids(page({}, 'reward')), ['t-none', 't1b', 't3b', 't2b', 't1a', 't2a', 't-long']);
  assert.deepEqual(ids(page({}, 'reward', true)), ['t-long', 't2a', 't1a', 't2b', 't3b', 't1b', 't-none']);
  assert.deepEqual(ids(page({}, 'messages')), ['t1b', 't-none', 't3b', 't2a', 't2b', 't-long', 't1a']);
  // Only t1b is flagged: the step windows and the run-wide flag are about no single episode.
  assert.deepEqual(ids(page({}, 'flags')), ['t1a', 't2a', 't2b', 't-none', 't-long', 't3b', 't1b']);
  assert.deepEqual(ids(page({}, 'flags', true)), ['t1b', 't3b', 't-long', 't-none', 't2b', 't2a', 't1a']);
  assert.deepEqual(ids(page({}, 'externalId')), ['t-long', 't-none', 't1a', 't1b', 't2a', 't2b', 't3b']);
  const row = page({}, 'step').rows[1];
  assert.deepEqual(row, {
    episodeId: f.id('t1a'),
    externalId: 't1a',
    step: 1,
    group: 'g1',
    sample: 0,
    reward: 1,
    agents: 3,
    messages: 4,
    flags: 0,
    credit: [null, null, null],
  });
});

test('episodes() pages with offset and limit and reports the total', () => {
  const p = page({}, 'step', false, 2, 2);
  assert.deepEqual([p.total, p.offset, ids(p), p.searchError], [7, 2, ['t1b', 't2a'], null]);
  assert.deepEqual([page({}, 'step', false, 7, 2).total, ids(page({}, 'step', false, 7, 2))], [7, []]);
});

test('episodes() filters by step range, group, reward range, roster agent and flag', () => {
  seedFlags();
  const both = (filter: EpisodeFilter) => {
    const p = page(filter, 'step');
    return [p.total, ids(p)];
  };
  assert.deepEqual(both({ stepFrom: 2 }), [4, ['t2a', 't2b', 't-long', 't3b']]);
  assert.deepEqual(both({ stepFrom: 1, stepTo: 1 }), [2, ['t1a', 't1b']]);
  assert.deepEqual(both({ group: 'g2' }), [2, ['t2a', 't2b']]);
  assert.deepEqual(both({ rewardMin: 0.5, rewardMax: 0.9 }), [1, ['t2b']]);
  assert.deepEqual(both({ rewardMax: 0 }), [2, ['t1b', 't3b']]);
  assert.deepEqual(both({ agent: 'verifier' }), [6, ['t-none', 't1a', 't1b', 't2a', 't2b', 't-long']]);
  assert.deepEqual(both({ agent: 'nobody' }), [0, []]);
  // A flag filter keeps the episodes a flag is about: a step window is about none of them.
  assert.deepEqual(both({ flag: 'any' }), [1, ['t1b']]);
  assert.deepEqual(both({ flag: 'silent' }), [1, ['t1b']]);
  assert.deepEqual(both({ flag: 'free-rider', stepTo: 2 }), [0, []]);
  assert.deepEqual(both({ flag: 'dominant' }), [0, []], 'a run-scope flag covers no episode');
  assert.deepEqual(both({ group: null, stepFrom: null, search: null }), [
    7,
    ['t-none', 't1a', 't1b', 't2a', 't2b', 't-long', 't3b'],
  ]);
  assert.deepEqual(ids(page({ agent: 'alone' }, 'step', false, 0, 50, f.soloRunId)), ['s1']);
});

test('episodes() says how many episodes a search cannot match while search is still being built', () => {
  assert.equal(page({ search: 'alpha' }).unsearched, undefined, 'every episode searchable: nothing to say');
  const db = f.store.db;
  const pendingIds = [f.id('t2a'), f.id('t2b')];
  for (const id of pendingIds) db.prepare('INSERT INTO episode_unsearched (episode_id) VALUES (?)').run(id);
  try {
    assert.equal(page({ search: 'alpha' }).unsearched, 2);
    assert.equal(page({}).unsearched, undefined, 'without a search the table is complete');
  } finally {
    db.exec('DELETE FROM episode_unsearched');
  }
});

test('episodes() searches message text within the run; a malformed query gives searchError and an empty page', () => {
  assert.deepEqual(ids(page({ search: 'alpha' })), ['t1a'], "the solo run's 'alpha' is not listed");
  assert.deepEqual(ids(page({ search: 'alpha OR beta' }, 'reward')), ['t1b', 't1a']);
  assert.deepEqual(ids(page({ search: 'gam*', stepFrom: 2 })), ['t2a']);
  assert.deepEqual(ids(page({ search: 'plan second' })), ['t1a'], 'words are ANDed within a message');
  for (const bad of ['"unterminated', 'AND', 'nocolumn:word']) {
    const p = page({ search: bad });
    assert.deepEqual([p.total, p.rows, p.offset], [0, [], 0], bad);
    assert.match(p.searchError ?? '', new RegExp(`^cannot search for "${bad}"`));
  }
});
