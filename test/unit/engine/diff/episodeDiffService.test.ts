import assert from 'node:assert/strict';
import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { EpisodeDiffService } from '../../../../src/engine/diff/episodeDiffService';
import { EpisodeViewService, type EpisodeViewContext } from '../../../../src/engine/views/episodeViewService';
import { agentCredit, clearCredit, insertCredit, viewFixture, type ViewFixture } from '../views/viewFixture';

// The diff service on the views' indexed fixture (test/unit/engine/views/viewFixture.ts), read
// through the Episode view's service. Oracles by hand from the fixture's episodes:
// t1a: planner "plan the sum alpha", planner "second plan", solver "2 + 2 = 4 #### 4", verifier …; reward 1.
// t1b: planner "beta plan", solver "answer 5"; reward 0.
// Aligned: planner#0 paired (0–0), planner#1 deleted (A1), solver#0 paired (2–1), verifier#0 deleted (A3).

let f: ViewFixture;
let views: EpisodeViewService;
const context: EpisodeViewContext = {
  defaultMethod: 'shared',
  evaluator: { configured: false, description: 'none', reason: 'no evaluator configured' },
};

before(async () => {
  f = await viewFixture();
  views = new EpisodeViewService(f.store.db, f.root);
});

after(() => f.store.close());

beforeEach(() => clearCredit(f));

const pair = (a: string, b: string, service = views): EpisodeDiffService =>
  new EpisodeDiffService({ service, episodeId: f.id(a), context }, { service, episodeId: f.id(b), context });

const near = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-12, `${what}: ${String(actual)}`);
};

test('EpisodeDiffService.diff aligns by agent and turn, with shared credit on both sides and B − A', async () => {
  const diff = await pair('t1a', 't1b').diff('shared');
  assert.ok(diff);
  assert.deepEqual(diff.ref, {
    a: { folder: f.root, episodeId: f.id('t1a') },
    b: { folder: f.root, episodeId: f.id('t1b') },
  });
  assert.deepEqual(
    diff.rows.map((r) => [r.kind, r.agent, r.turn, r.a, r.b, r.creditA, r.creditB, r.delta, r.textChanged]),
    [
      // Shared reward spread over each agent's messages: the planner's 1 over its 2 messages in t1a.
      ['paired', 'planner', 0, 0, 0, 0.5, 0, -0.5, true],
      ['deleted', 'planner', 1, 1, null, 0.5, null, null, null],
      ['paired', 'solver', 0, 2, 1, 1, 0, -1, true],
      ['deleted', 'verifier', 0, 3, null, 1, null, null, null],
    ],
  );
  assert.deepEqual(diff.counts, { paired: 2, changed: 2, deleted: 2, inserted: 0 });
  assert.equal(diff.rewardDelta, -1);
  assert.deepEqual([diff.a.reward, diff.b.reward, diff.a.externalId, diff.b.externalId], [1, 0, 't1a', 't1b']);
  assert.deepEqual(
    diff.agents.map((t) => [t.agent, t.a, t.b, t.delta, t.status]),
    [
      ['planner', 1, 0, -1, 'exact'],
      ['solver', 1, 0, -1, 'exact'],
      ['verifier', 1, 0, -1, 'exact'],
    ],
  );
  assert.equal(diff.a.credit.source, 'logged');
  assert.equal('messageCredit' in diff.a.credit, false, 'message credit rides on the rows only');
  assert.deepEqual(diff.notes, []);
  assert.equal(diff.rowsLeftOut, 0);
});

test('EpisodeDiffService.diff: a side without stored credit gives no number and no difference, and says why', async () => {
  insertCredit(f, agentCredit('t2a', [0.1, 0.6, 0.3]));
  const service = pair('t2a', 't2b');
  const before = await service.diff('loo');
  assert.ok(before);
  assert.deepEqual(
    before.rows.map((r) => [r.creditA, r.creditB, r.delta]),
    [
      [0.1, null, null],
      [0.6, null, null],
      [0.3, null, null],
    ],
  );
  // t2b logs no coalition values and no evaluator is configured: the reason says what would give credit.
  assert.equal(before.b.credit.status, 'no-evaluator');
  assert.match(before.b.credit.reason ?? '', /loo needs coalition values: the trace logs none/);
  assert.deepEqual(before.b.evaluator, context.evaluator);
  assert.deepEqual(
    before.agents.map((t) => [t.a, t.b, t.delta, t.status]),
    [
      [0.1, null, null, null],
      [0.6, null, null, null],
      [0.3, null, null, null],
    ],
  );
  // Both sides computed: the verifier's B value rests on a removal without a replay, so its difference is approximate.
  insertCredit(f, [
    ...agentCredit('t2b', [0.2, 0.2]).slice(0, 2),
    { episode: 't2b', agent: 'verifier', value: 0.1, approximate: true },
  ]);
  const after = await service.diff('loo');
  assert.ok(after);
  near(after.rows[0]?.delta, 0.1, 'planner');
  near(after.rows[1]?.delta, -0.4, 'solver');
  near(after.rows[2]?.delta, -0.2, 'verifier');
  assert.deepEqual(
    after.agents.map((t) => t.status),
    ['exact', 'exact', 'approximate'],
  );
  assert.equal(after.rewardDelta, -0.5);
});

test('EpisodeDiffService.texts word-diffs paired rows; a lone message is all changed; cut texts say so', async () => {
  const window = await pair('t1a', 't1b').texts(0, 10);
  assert.ok(window);
  assert.deepEqual(
    window.rows.map((r) => r.row),
    [0, 1, 2, 3],
  );
  assert.deepEqual(window.rows[1], {
    row: 1,
    a: { spans: [{ text: 'second plan', changed: true }], chars: 11, truncated: false },
    b: null,
    capped: null,
  });
  const solver = window.rows[2];
  assert.deepEqual(solver?.a?.spans, [{ text: '2 + 2 = 4 #### 4', changed: true }]);
  assert.deepEqual(solver?.b?.spans, [{ text: 'answer 5', changed: true }]);
  assert.deepEqual(
    (await pair('t1a', 't1b').texts(3, 5))?.rows.map((r) => r.row),
    [3],
  );
  assert.deepEqual((await pair('t1a', 't1b').texts(9, 5))?.rows, []);
  // t-long's planner message is 70,000 characters: the diff covers the 65,536 sent, and says so.
  const long = await pair('t-long', 't2a').texts(0, 1);
  assert.deepEqual([long?.rows[0]?.a?.chars, long?.rows[0]?.a?.truncated], [70_000, true]);
  assert.deepEqual(long?.rows[0]?.b?.spans, [{ text: 'gamma', changed: true }]);
});

test('EpisodeDiffService: the same episode twice is all unchanged and said; an episode gone is undefined', async () => {
  const same = await pair('t2a', 't2a').diff('shared');
  assert.ok(same);
  assert.deepEqual(
    same.rows.map((r) => [r.kind, r.delta, r.textChanged]),
    [
      ['paired', 0, false],
      ['paired', 0, false],
      ['paired', 0, false],
    ],
  );
  assert.deepEqual(same.notes, ['A and B are the same episode: every row is the same on both sides.']);
  const text = await pair('t2a', 't2a').texts(0, 1);
  assert.deepEqual(text?.rows[0]?.a?.spans, [{ text: 'gamma', changed: false }]);
  const gone = new EpisodeDiffService(
    { service: views, episodeId: f.id('t2a'), context },
    { service: views, episodeId: 999_999, context },
  );
  assert.equal(await gone.diff('shared'), undefined);
  assert.equal(await gone.texts(0, 1), undefined);
});

// Last: it cuts the fixture's trace file.
test('EpisodeDiffService: a trace that cannot be read back aligns from the index, compares no text and says so', async () => {
  const file = join(f.root, 'team', 'a.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  truncateSync(file, Buffer.byteLength(lines.slice(0, -2).join('\n')) + 10); // t3b, the last line, cut short
  const diff = await pair('t2a', 't3b', new EpisodeViewService(f.store.db, f.root)).diff('shared');
  assert.ok(diff);
  assert.deepEqual(
    diff.rows.map((r) => [r.kind, r.agent, r.textChanged]),
    [
      ['paired', 'planner', null],
      ['paired', 'solver', null],
      ['deleted', 'verifier', null],
    ],
  );
  assert.match(diff.b.readError ?? '', /shorter than when it was indexed/);
  assert.match(
    diff.notes[0] ?? '',
    /^The messages of B \(t3b\) cannot be read back from the trace .*no text is compared\.$/,
  );
  const texts = await pair('t2a', 't3b', new EpisodeViewService(f.store.db, f.root)).texts(0, 1);
  assert.deepEqual([texts?.rows[0]?.a?.spans, texts?.rows[0]?.b], [[{ text: 'gamma', changed: false }], null]);
});
