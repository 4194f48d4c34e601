import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiffRowView } from '../../../src/protocol/episodeDiffPanel';
import { differences, nextDifference, noDeltaReason, rowChanges } from '../../../webview/src/diff/model';
import { restoreDiffState, samePair } from '../../../webview/src/diff/state';

const row = (overrides: Partial<DiffRowView>): DiffRowView => ({
  kind: 'paired',
  agent: 'solver',
  turn: 0,
  a: 0,
  b: 0,
  creditA: 0.5,
  creditB: 0.5,
  delta: 0,
  textChanged: false,
  ...overrides,
});

test('rowChanges says why a row differs: a lone message, a changed text, a credit difference other than 0', () => {
  assert.deepEqual(rowChanges(row({})), []);
  assert.deepEqual(rowChanges(row({ textChanged: true, delta: -0.25 })), ['text changed', 'credit −0.250']);
  assert.deepEqual(rowChanges(row({ kind: 'inserted', a: null, creditA: null, delta: null, textChanged: null })), [
    'only in B',
  ]);
  assert.deepEqual(rowChanges(row({ kind: 'deleted', b: null, delta: null, textChanged: null })), ['only in A']);
  assert.deepEqual(rowChanges(row({ creditB: null, delta: null })), [], 'a missing value is not a difference of 0');
});

test('differences and nextDifference walk the differing rows, wrapping at either end', () => {
  const rows = [row({}), row({ textChanged: true }), row({}), row({ delta: 0.1 }), row({ kind: 'deleted', b: null })];
  const found = differences(rows);
  assert.deepEqual(found, [1, 3, 4]);
  assert.equal(nextDifference(found, null, 1), 1);
  assert.equal(nextDifference(found, 1, 1), 3);
  assert.equal(nextDifference(found, 2, 1), 3, 'from a row that is no difference');
  assert.equal(nextDifference(found, 4, 1), 1, 'wraps to the first');
  assert.equal(nextDifference(found, null, -1), 4);
  assert.equal(nextDifference(found, 3, -1), 1);
  assert.equal(nextDifference(found, 1, -1), 4, 'wraps to the last');
  assert.equal(nextDifference([], 0, 1), null);
});

test('noDeltaReason names the side without credit, or the side that lacks the message', () => {
  assert.equal(noDeltaReason(row({})), null);
  assert.equal(noDeltaReason(row({ creditB: null, delta: null })), 'No difference: B has no credit for this message');
  assert.equal(
    noDeltaReason(row({ creditA: null, creditB: null, delta: null })),
    'No difference: A and B have no credit for this message',
  );
  assert.equal(noDeltaReason(row({ kind: 'deleted', delta: null })), 'No difference: the message is only in A');
});

test('restoreDiffState keeps a well-formed pair (only its fields), drops a bad field alone, another version whole', () => {
  const ref = { a: { folder: '/r', episodeId: 1, extra: 'x' }, b: { folder: '/r', episodeId: 2 } };
  const restored = restoreDiffState({ version: 1, ref, method: 'loo', focusedRow: -3 });
  assert.deepEqual(restored, {
    version: 1,
    ref: { a: { folder: '/r', episodeId: 1 }, b: { folder: '/r', episodeId: 2 } },
    method: 'loo',
    focusedRow: null,
  });
  assert.deepEqual(restoreDiffState({ version: 2, ref, method: 'loo', focusedRow: 3 }).ref, null);
  assert.equal(restoreDiffState({ version: 1, ref: { a: ref.a }, method: 'nope', focusedRow: 3 }).focusedRow, 3);
  assert.equal(samePair(restored.ref, { a: { folder: '/r', episodeId: 1 }, b: { folder: '/r', episodeId: 2 } }), true);
  assert.equal(samePair(restored.ref, { a: { folder: '/r', episodeId: 2 }, b: { folder: '/r', episodeId: 1 } }), false);
  assert.equal(samePair(null, restored.ref), false);
});
