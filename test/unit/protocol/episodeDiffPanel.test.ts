import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeDiffNotification,
  DiffReadyCommand,
  GetDiffRequest,
  GetDiffTextsRequest,
  OpenDiffSideCommand,
  isDiffRef,
  maxDiffRows,
  maxDiffTextWindow,
} from '../../../src/protocol/episodeDiffPanel';
import { maxDiffRows as engineMaxDiffRows } from '../../../src/engine/diff/episodeDiffService';
import { DiffWithCommand } from '../../../src/protocol/episodePanel';
import { DiffRolloutCommand } from '../../../src/protocol/groupPanel';

const ref = { a: { folder: '/runs/a', episodeId: 1 }, b: { folder: '/runs/b', episodeId: 0 } };
const unknownMethod = 'unknown-method';

test('the engine sends at most as many rows as the protocol says (its own copy of maxDiffRows)', () => {
  assert.equal(engineMaxDiffRows, maxDiffRows);
});

test('isDiffRef(value) wants two episode refs, each a bounded folder and a non-negative integer id', () => {
  assert.equal(isDiffRef(ref), true);
  for (const bad of [
    null,
    [],
    {},
    { a: ref.a },
    { a: ref.a, b: null },
    { a: ref.a, b: { folder: '', episodeId: 1 } },
    { a: ref.a, b: { folder: 'x'.repeat(4097), episodeId: 1 } },
    { a: { folder: '/runs/a', episodeId: -1 }, b: ref.b },
    { a: { folder: '/runs/a', episodeId: 1.5 }, b: ref.b },
    { a: { folder: '/runs/a', episodeId: '1' }, b: ref.b },
  ])
    assert.equal(isDiffRef(bad), false, JSON.stringify(bad));
});

test('the diff requests accept only the pair, a view method and a bounded window', () => {
  const message = (method: string, params: unknown, id?: number) => ({
    method,
    params,
    ...(id === undefined ? {} : { id }),
  });
  assert.equal(DiffReadyCommand.is(message('episodeDiff/ready', { stateVersion: 1, ref: null })), true);
  assert.equal(DiffReadyCommand.is(message('episodeDiff/ready', { stateVersion: 1, ref })), true);
  assert.equal(DiffReadyCommand.is(message('episodeDiff/ready', { stateVersion: -1, ref: null })), false);
  assert.equal(DiffReadyCommand.is(message('episodeDiff/ready', { stateVersion: 1, ref: { a: ref.a } })), false);
  assert.equal(GetDiffRequest.is(GetDiffRequest.with({ ref, method: 'loo' }, 1)), true);
  assert.equal(GetDiffRequest.is(GetDiffRequest.with({ ref, method: 'loo' })), false, 'a request needs an id');
  assert.equal(GetDiffRequest.is(message(GetDiffRequest.method, { ref, method: unknownMethod }, 1)), false);
  const texts = (offset: unknown, limit: unknown) => message(GetDiffTextsRequest.method, { ref, offset, limit }, 2);
  assert.equal(GetDiffTextsRequest.is(texts(0, maxDiffTextWindow)), true);
  for (const [offset, limit] of [
    [0, 0],
    [0, maxDiffTextWindow + 1],
    [-1, 10],
    [2 ** 31, 10],
    [0.5, 10],
    ['0', 10],
  ] as const)
    assert.equal(GetDiffTextsRequest.is(texts(offset, limit)), false, `${String(offset)}, ${String(limit)}`);
  assert.equal(OpenDiffSideCommand.is(OpenDiffSideCommand.with({ ref, side: 'b', method: 'shared' })), true);
  assert.equal(
    OpenDiffSideCommand.is(message(OpenDiffSideCommand.method, { ref, side: 'c', method: 'shared' })),
    false,
  );
  assert.equal(OpenDiffSideCommand.is(message(OpenDiffSideCommand.method, { ref, method: 'shared' })), false);
  assert.equal(DidChangeDiffNotification.method, 'episodeDiff/diff/didChange');
});

test('"Diff with…" of the Episode and group views: the shown episode or rollout under a view method', () => {
  const episodeRef = { folder: '/runs/a', episodeId: 4 };
  assert.equal(DiffWithCommand.is(DiffWithCommand.with({ ref: episodeRef, method: 'owen' })), true);
  assert.equal(DiffWithCommand.is({ method: DiffWithCommand.method, params: { ref: episodeRef } }), false);
  const groupRef = { folder: '/runs/a', runId: 1, group: 's1-g0' };
  assert.equal(DiffRolloutCommand.is(DiffRolloutCommand.with({ ref: groupRef, episodeId: 4, method: 'loo' })), true);
  assert.equal(
    DiffRolloutCommand.is({
      method: DiffRolloutCommand.method,
      params: { ref: groupRef, episodeId: -4, method: 'loo' },
    }),
    false,
  );
});
