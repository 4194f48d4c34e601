import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignMessages, turnIndices } from '../../../../src/engine/diff/alignMessages';

// Oracles worked by hand: a message pairs with the same agent's message of the same turn index
// (its k-th message), rows follow A, a B-only message follows the row of the B message before it.

test('turnIndices counts each agent’s messages from 0', () => {
  assert.deepEqual(turnIndices(['p', 's', 'p', 'v', 's', 'p']), [0, 0, 1, 0, 1, 2]);
  assert.deepEqual(turnIndices([]), []);
});

test('alignMessages pairs by agent and turn, whatever the other agents did in between', () => {
  // A: p0 s0 v0 s1; B: p0 s0 s1 v0 c0 → A0–B0, A1–B1, A2–B3, A3–B2; the critic only in B, after B3's row.
  const rows = alignMessages(
    ['planner', 'solver', 'verifier', 'solver'],
    ['planner', 'solver', 'solver', 'verifier', 'critic'],
  );
  assert.deepEqual(rows, [
    { kind: 'paired', agent: 'planner', turn: 0, a: 0, b: 0 },
    { kind: 'paired', agent: 'solver', turn: 0, a: 1, b: 1 },
    { kind: 'paired', agent: 'verifier', turn: 0, a: 2, b: 3 },
    { kind: 'inserted', agent: 'critic', turn: 0, b: 4 },
    { kind: 'paired', agent: 'solver', turn: 1, a: 3, b: 2 },
  ]);
});

test('alignMessages marks messages only one side has: deleted from A, inserted in B, at the top when first', () => {
  assert.deepEqual(alignMessages(['a', 'b', 'a'], ['b']), [
    { kind: 'deleted', agent: 'a', turn: 0, a: 0 },
    { kind: 'paired', agent: 'b', turn: 0, a: 1, b: 0 },
    { kind: 'deleted', agent: 'a', turn: 1, a: 2 },
  ]);
  assert.deepEqual(alignMessages(['s'], ['p', 's', 's']), [
    { kind: 'inserted', agent: 'p', turn: 0, b: 0 },
    { kind: 'paired', agent: 's', turn: 0, a: 0, b: 1 },
    { kind: 'inserted', agent: 's', turn: 1, b: 2 },
  ]);
});

test('alignMessages of empty episodes: the other side whole, inserted or deleted; nothing for two empty ones', () => {
  assert.deepEqual(alignMessages([], ['x', 'y']), [
    { kind: 'inserted', agent: 'x', turn: 0, b: 0 },
    { kind: 'inserted', agent: 'y', turn: 0, b: 1 },
  ]);
  assert.deepEqual(
    alignMessages(['x'], []).map((r) => r.kind),
    ['deleted'],
  );
  assert.deepEqual(alignMessages([], []), []);
});

test('alignMessages: every message of either side is on exactly one row, each side in its own order where turns agree', () => {
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const agents = ['p', 's', 'v', 'p\u0000s'];
  for (let trial = 0; trial < 200; trial++) {
    const draw = (): string[] =>
      Array.from({ length: Math.floor(random() * 12) }, () => agents[Math.floor(random() * agents.length)] ?? 'p');
    const a = draw();
    const b = draw();
    const rows = alignMessages(a, b);
    const seqA = rows.flatMap((r) => (r.kind === 'inserted' ? [] : [r.a]));
    const seqB = rows.flatMap((r) => (r.kind === 'deleted' ? [] : [r.b])).sort((x, y) => x - y);
    assert.deepEqual(seqA, [...a.keys()], 'A in order, each once');
    assert.deepEqual(seqB, [...b.keys()], 'B each once');
    for (const r of rows) {
      if (r.kind !== 'inserted') assert.equal(a[r.a], r.agent);
      if (r.kind !== 'deleted') assert.equal(b[r.b], r.agent);
    }
  }
});
