import assert from 'node:assert/strict';
import { rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { EpisodeViewService, type EpisodeViewContext } from '../../../../src/engine/views/episodeViewService';
import { AuditRepository } from '../../../../src/store/auditRepository';
import { agentCredit, clearCredit, insertCredit, longText, viewFixture, type ViewFixture } from './viewFixture';

let f: ViewFixture;
let service: EpisodeViewService;
const context: EpisodeViewContext = {
  defaultMethod: 'shapley',
  evaluator: { configured: false, description: 'none', reason: 'Restricted Mode' },
};

before(async () => {
  f = await viewFixture();
  service = new EpisodeViewService(f.store.db, f.root);
});

after(() => f.store.close());

beforeEach(() => clearCredit(f));

const sum = (values: readonly (number | null)[]): number => values.reduce<number>((s, v) => s + (v ?? 0), 0);

test('episode() gives the index data: run, step, roster with logged reward and advantage, location', () => {
  const data = service.episode(f.id('t1a'), context);
  assert.ok(data);
  assert.deepEqual(data.ref, { folder: f.root, episodeId: f.id('t1a') });
  assert.deepEqual(data.creditDomain, { bound: 1, reward: { min: 0, max: 1 } }, "the run's reward span");
  assert.deepEqual(
    [
      data.externalId,
      data.runName,
      data.mechanism,
      data.step,
      data.group,
      data.sample,
      data.reward,
      data.groundTruth,
      data.messageCount,
      data.tokenCount,
    ],
    ['t1a', 'team', 'pipeline', 1, 'g1', 0, 1, '4', 4, 6],
  );
  assert.deepEqual(data.finalAnswer, { answer: '4', agent: 'solver' });
  assert.deepEqual(
    data.agents.map((a) => [a.name, a.kind, a.declared, a.messages, a.loggedReward, a.loggedAdvantage]),
    [
      ['planner', 'llm', true, 2, 0.2, null],
      ['solver', 'llm', true, 1, null, -0.5],
      ['verifier', 'llm', true, 1, null, null],
    ],
  );
  assert.deepEqual(data.location, { uri: 'team/a.jsonl', line: 1 });
  assert.equal(data.readError, null);
  assert.equal(data.defaultMethod, 'shapley');
  assert.deepEqual(data.evaluator, context.evaluator);
  assert.equal(service.episode(999_999, context), undefined);
});

test('episode() puts the label on the exact message', () => {
  assert.deepEqual(service.episode(f.id('t1a'), context)?.labels, [
    { kind: 'mistake', agent: 'solver', message: 2, value: null, reason: 'off by one' },
  ]);
});

test("episode() lists only the flags naming the episode; the run's step windows over its step are one count", () => {
  new AuditRepository(f.store.db).replaceFlags(f.teamRunId, [
    { kind: 'silent', agent: 'verifier', scope: 'episode', episode: 't1b', evidence: { silentEpisodes: 1 } },
    { kind: 'idle', agent: 'verifier', scope: 'step', steps: [1, 1], evidence: { meanCredit: 0.001 } },
    { kind: 'free-rider', agent: 'planner', scope: 'step', steps: [2, 3], evidence: {} },
    { kind: 'decoupling', agent: 'solver', scope: 'step', steps: [0, 2], evidence: {} },
    { kind: 'dominant', agent: 'solver', scope: 'run', evidence: {} },
  ]);
  const flags = (id: string): [string[], unknown] => {
    const data = service.episode(f.id(id), context);
    return [data?.flags.map((x) => x.kind) ?? [], data?.runWindows];
  };
  const team = f.teamRunId;
  assert.deepEqual(
    flags('t1a'),
    [[], { runId: team, count: 2, step: 1, steps: [0, 2] }],
    'step 1: idle and decoupling',
  );
  assert.deepEqual(flags('t1b'), [['silent'], { runId: team, count: 2, step: 1, steps: [0, 2] }]);
  assert.deepEqual(flags('t2a'), [[], { runId: team, count: 2, step: 2, steps: [0, 3] }], 'the span of both windows');
  assert.deepEqual(flags('t-none'), [[], null], 'an episode without a step is under no window');
  const silent = service.episode(f.id('t1b'), context)?.flags[0];
  assert.equal(silent?.scope, 'episode');
  assert.equal(silent?.summary, 'verifier is declared in the roster but never acts (episode t1b): silent in 1 episode');
  assert.deepEqual(silent?.evidence, [{ label: 'silent in', value: '1 episode' }], 'the evidence in words');
});

test('episode() lists counterfactuals from logged interventions, logged coalitions and cached evaluations, singletons first', () => {
  const db = f.store.db;
  const insert = db.prepare(
    "INSERT INTO evaluation (episode_id, evaluator, intervention, value, computed_at) VALUES (?, 'fp', ?, ?, 'now')",
  );
  insert.run(f.id('t1a'), `agents:${String(f.agentId('planner'))}`, 0.25);
  insert.run(f.id('t1a'), 'messages:0,1', 0.75);
  assert.deepEqual(service.episode(f.id('t1a'), context)?.counterfactuals, [
    { removed: ['verifier'], intervention: 'remove', reward: 1, source: 'logged', evaluator: null, n: 1 },
    { removed: ['verifier'], intervention: 'coalition', reward: 0.5, source: 'logged', evaluator: null, n: 4 },
    {
      removed: ['solver', 'verifier'],
      intervention: 'coalition',
      reward: 0.25,
      source: 'cached',
      evaluator: 'fp',
      n: null,
    },
    {
      removed: ['planner', 'solver', 'verifier'],
      intervention: 'coalition',
      reward: 0,
      source: 'logged',
      evaluator: null,
      n: null,
    },
  ]);
  assert.deepEqual(service.episode(f.id('t1b'), context)?.counterfactuals, []);
});

test('messages() returns a window with turn, role, channel and token attribution only when the arrays match', async () => {
  const window = await service.messages(f.id('t1a'), 1, 2);
  assert.equal(window.offset, 1);
  assert.deepEqual(
    window.messages.map((m) => [m.seq, m.agent, m.content, m.tokenCount, m.tokens]),
    [
      [1, 'planner', 'second plan', 2, { text: ['sec', 'ond'], attribution: [0.25, 0.75] }],
      [2, 'solver', '2 + 2 = 4 #### 4', null, null],
    ],
  );
  const first = (await service.messages(f.id('t1a'), 0, 1)).messages[0];
  assert.deepEqual(
    [first?.turn, first?.role, first?.channel, first?.truncated, first?.contentChars],
    [0, 'assistant', 'speech', false, 18],
  );
  assert.deepEqual(
    (await service.messages(f.id('t1a'), 3, 10)).messages.map((m) => m.seq),
    [3],
  );
  assert.deepEqual((await service.messages(f.id('t1a'), 10, 10)).messages, []);
});

test('messages() cuts long text at 65,536 characters without splitting a surrogate pair', async () => {
  const [long, short] = (await service.messages(f.id('t-long'), 0, 2)).messages;
  assert.equal(long?.truncated, true);
  assert.equal(long?.contentChars, longText.length);
  assert.equal(long?.content.length, 65_535);
  assert.equal(long?.content, longText.slice(0, 65_535));
  assert.equal(short?.truncated, false);
});

test('credit() takes the parameter set computed last and returns every roster agent in roster order', () => {
  insertCredit(f, [
    ...agentCredit('t1a', [0.9, 0.9, 0.9], { hash: 'old', at: '2026-01-01T00:00:00.000Z' }),
    ...agentCredit('t1a', [0.6, 0.3], {
      hash: 'new',
      at: '2026-02-01T00:00:00.000Z',
      approximate: true,
      source: 'evaluated',
      n: 8,
    }).slice(0, 2),
  ]);
  insertCredit(f, [
    { episode: 't1a', agent: 'verifier', value: 0.1, hash: 'new', at: '2026-02-01T00:00:00.000Z', source: 'logged' },
  ]);
  const credit = service.credit(f.id('t1a'), 'loo', false);
  assert.equal(credit.status, 'computed');
  assert.deepEqual(
    credit.agents.map((a) => [a.agent, a.value, a.n]),
    [
      ['planner', 0.6, 8],
      ['solver', 0.3, 8],
      ['verifier', 0.1, null],
    ],
  );
  assert.deepEqual(
    [credit.approximate, credit.source, credit.computedAt, credit.shared, credit.reason],
    [true, 'logged+checked', '2026-02-01T00:00:00.000Z', 1, null],
  );
});

test('credit() spreads each agent over its messages: the messages sum to the agents total', () => {
  insertCredit(f, agentCredit('t1a', [0.6, 0.3, 0.1]));
  const credit = service.credit(f.id('t1a'), 'loo', false);
  assert.equal(credit.messageCreditKind, 'spread');
  assert.deepEqual(credit.messageCredit, [0.3, 0.3, 0.3, 0.1]);
  assert.ok(Math.abs(sum(credit.messageCredit) - sum(credit.agents.map((a) => a.value))) < 1e-12);
});

test('credit() spread: a silent agent contributes nothing, an agent without a value leaves its messages null', () => {
  insertCredit(f, agentCredit('t1b', [0.5, 0.25, 0.2]));
  assert.deepEqual(service.credit(f.id('t1b'), 'loo', false).messageCredit, [0.5, 0.25]);
  insertCredit(f, [{ episode: 't2a', agent: 'solver', value: 1 }]);
  const credit = service.credit(f.id('t2a'), 'loo', false);
  assert.deepEqual(credit.messageCredit, [null, 1, null]);
  assert.deepEqual(
    credit.agents.map((a) => a.value),
    [null, 1, null],
  );
});

test('credit() uses stored per-message values when the method has them', () => {
  const at = { method: 'prefix', source: 'evaluated' };
  insertCredit(f, [
    ...agentCredit('t1a', [0.5, 0.25, 0.25], at),
    ...[0.2, 0.3, 0.25, 0.25].map((value, seq) => ({
      episode: 't1a',
      agent: ['planner', 'planner', 'solver', 'verifier'][seq] ?? '',
      value,
      seq,
      ...at,
    })),
  ]);
  const credit = service.credit(f.id('t1a'), 'prefix', false);
  assert.deepEqual(
    [credit.status, credit.messageCreditKind, credit.messageCredit],
    ['computed', 'per-message', [0.2, 0.3, 0.25, 0.25]],
  );
  assert.deepEqual(
    credit.agents.map((a) => a.value),
    [0.5, 0.25, 0.25],
  );
});

test('credit() status: not-computed when values are logged or an evaluator is configured, else no-evaluator', () => {
  const status = (id: string, method: 'loo' | 'shapley-mc' | 'prefix' | 'routing', configured: boolean) => {
    const c = service.credit(f.id(id), method, configured);
    return [c.status, c.agents.length, c.messageCredit.length, c.reason === null];
  };
  assert.deepEqual(status('t1a', 'loo', false), ['not-computed', 3, 4, false]);
  assert.deepEqual(status('t1b', 'loo', false), ['no-evaluator', 3, 2, false]);
  assert.deepEqual(status('t1b', 'shapley-mc', true), ['not-computed', 3, 2, false]);
  assert.deepEqual(
    status('t1a', 'prefix', false),
    ['no-evaluator', 3, 4, false],
    'logged agent coalitions do not give message values',
  );
  f.store.db
    .prepare(
      "INSERT INTO evaluation (episode_id, evaluator, intervention, value, computed_at) VALUES (?, 'fp', 'messages:0', 0.5, 'now')",
    )
    .run(f.id('t1a'));
  assert.deepEqual(status('t1a', 'prefix', false), ['not-computed', 3, 4, false]);
  f.store.db
    .prepare(
      "INSERT INTO evaluation (episode_id, evaluator, intervention, value, computed_at) VALUES (?, 'fp', 'agents:1', 0.5, 'now')",
    )
    .run(f.id('t1b'));
  assert.deepEqual(status('t1b', 'loo', false), ['not-computed', 3, 2, false]);
  assert.deepEqual(status('t1a', 'routing', true), ['no-evaluator', 3, 4, false]);
  assert.match(service.credit(f.id('t1a'), 'routing', true).reason ?? '', /router/);
});

test('credit() status failed when the latest result is an error; older errors do not hide newer values', () => {
  const error = f.store.db.prepare(
    "INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, computed_at) VALUES (?, ?, 'loo', ?, 'the evaluator crashed', ?)",
  );
  error.run(f.teamRunId, f.id('t2a'), 'h2', '2026-03-01T00:00:00.000Z');
  insertCredit(f, agentCredit('t2a', [1, 0, 0], { at: '2026-02-01T00:00:00.000Z' }));
  const failed = service.credit(f.id('t2a'), 'loo', true);
  assert.deepEqual(
    [failed.status, failed.reason, failed.computedAt],
    ['failed', 'the evaluator crashed', '2026-03-01T00:00:00.000Z'],
  );
  assert.deepEqual(
    failed.agents.map((a) => a.value),
    [null, null, null],
  );
  error.run(f.teamRunId, f.id('t2b'), 'h2', '2026-01-01T00:00:00.000Z');
  insertCredit(f, agentCredit('t2b', [1, 0, 0], { at: '2026-02-01T00:00:00.000Z' }));
  assert.equal(service.credit(f.id('t2b'), 'loo', true).status, 'computed');
});

test('credit() not-identifiable carries the reason and the remedy; computed credit carries each value’s status and sources', () => {
  f.store.db
    .prepare(
      `
    INSERT INTO credit_error (run_id, episode_id, method, params_hash, reason, status, remedy, computed_at)
    VALUES (?, ?, 'shapley', 'h3', 'the checker cannot score this episode', 'not-identifiable', 'configure a replay evaluator', '2026-04-01')`,
    )
    .run(f.teamRunId, f.id('t1b'));
  const none = service.credit(f.id('t1b'), 'shapley', true);
  assert.deepEqual(
    [none.status, none.reason, none.remedy],
    ['not-identifiable', 'the checker cannot score this episode', 'configure a replay evaluator'],
  );
  assert.deepEqual(
    none.agents.map((a) => a.value),
    [null, null, null],
  );
  insertCredit(
    f,
    agentCredit('t3b', [0.5, 0, 0.5], { method: 'shapley', approximate: true, source: 'logged+checked' }),
  );
  const approximate = service.credit(f.id('t3b'), 'shapley', true);
  assert.deepEqual([approximate.valueStatus, approximate.source], ['approximate', 'logged+checked']);
  assert.ok(approximate.agents.every((a) => (a.value === null ? a.status === null : a.status === 'approximate')));
});

test('credit() derives shared from the logged team reward when nothing is stored', () => {
  const shared = service.credit(f.id('t2b'), 'shared', false);
  assert.deepEqual([shared.status, shared.source, shared.computedAt], ['computed', 'logged', null]);
  assert.deepEqual(
    shared.agents.map((a) => a.value),
    [0.5, 0.5, 0.5],
  );
  assert.deepEqual(shared.messageCredit, [0.5, 0.5, 0.5]);
  const none = service.credit(f.id('t-none'), 'shared', false);
  assert.equal(none.status, 'not-computed');
  assert.match(none.reason ?? '', /no team reward/);
  insertCredit(f, agentCredit('t2b', [2, 2, 2], { method: 'shared' }));
  assert.deepEqual(
    service.credit(f.id('t2b'), 'shared', false).agents.map((a) => a.value),
    [2, 2, 2],
  );
});

test('adjacent() walks the run by step, group, sample and id, the episode without a step first', () => {
  const order = ['t-none', 't1a', 't1b', 't2a', 't2b', 't-long', 't3b'].map(f.id);
  for (let i = 0; i < order.length; i++) {
    assert.equal(service.adjacent(order[i] ?? -1, 'next'), order[i + 1], `next of #${String(i)}`);
    assert.equal(
      service.adjacent(order[i] ?? -1, 'previous'),
      i === 0 ? undefined : order[i - 1],
      `previous of #${String(i)}`,
    );
  }
  assert.equal(service.adjacent(f.id('s1'), 'next'), undefined, 'stays within its run');
  assert.equal(service.adjacent(999_999, 'next'), undefined);
});

test('a trace file that is gone or shorter: readError in episode(), messages() rejects with file:line (decoded episodes are cached)', async () => {
  const g = await viewFixture();
  try {
    const views = new EpisodeViewService(g.store.db, g.root);
    assert.equal((await views.messages(g.id('t1b'), 0, 5)).messages.length, 2);
    truncateSync(join(g.root, 'team', 'a.jsonl'), 100);
    assert.equal((await views.messages(g.id('t1b'), 0, 5)).messages.length, 2, 'the last decoded episodes are kept');
    assert.equal(
      views.episode(g.id('t2a'), context)?.readError,
      'team/a.jsonl:3: the file is shorter than when it was indexed; re-index the run',
    );
    await assert.rejects(views.messages(g.id('t2a'), 0, 5), /^Error: team\/a\.jsonl:3: the file is shorter/);
    writeFileSync(join(g.root, 'team', 'a.jsonl'), 'x'.repeat(100_000));
    await assert.rejects(views.messages(g.id('t2b'), 0, 5), /^Error: team\/a\.jsonl:4: /);
    rmSync(join(g.root, 'team', 'a.jsonl'));
    assert.match(views.episode(g.id('t2a'), context)?.readError ?? '', /^team\/a\.jsonl:3: the trace file is missing/);
    await assert.rejects(views.messages(g.id('t2a'), 0, 5), /^Error: team\/a\.jsonl:3: cannot read the trace file/);
    await assert.rejects(views.messages(999_999, 0, 5), /not in the index/);
  } finally {
    g.store.close();
  }
});
