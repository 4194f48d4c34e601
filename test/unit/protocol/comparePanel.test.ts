import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CompareReadyCommand,
  CompareRunsRequest,
  GetCompareChoicesRequest,
  OpenCompareEpisodeCommand,
  cleanSide,
  isComparisonRequest,
  isMethodId,
  isRunName,
  isStepSpan,
  maxEpisodeIdChars,
  maxRunNameChars,
  toWire,
} from '../../../src/protocol/comparePanel';

const request = { a: { run: 'base' }, b: { run: 'credit', steps: { from: 400, to: 500 } }, method: 'shapley-mc' };

test('isComparisonRequest(value) accepts two sides and a method id, and refuses every malformed field', () => {
  assert.equal(isComparisonRequest(request), true);
  assert.equal(isComparisonRequest({ ...request, a: { run: '' } }), true, 'a run at the folder root is named ""');
  assert.equal(
    isComparisonRequest({ ...request, a: { run: 'x', steps: { from: -3, to: -3 } } }),
    true,
    'one step, negative',
  );
  const malformed: [string, unknown][] = [
    ['not an object', 'base vs credit'],
    ['no side B', { a: request.a, method: 'loo' }],
    ['a run that is not a string', { ...request, a: { run: 7 } }],
    ['a run name too long', { ...request, a: { run: 'r'.repeat(maxRunNameChars + 1) } }],
    ['steps backwards', { ...request, b: { run: 'x', steps: { from: 5, to: 4 } } }],
    ['fractional step', { ...request, b: { run: 'x', steps: { from: 1.5, to: 4 } } }],
    ['steps as text', { ...request, b: { run: 'x', steps: { from: '1', to: '4' } } }],
    ['steps as an array', { ...request, b: { run: 'x', steps: [1, 4] } }],
    ['an unsafe integer', { ...request, b: { run: 'x', steps: { from: 0, to: 2 ** 60 } } }],
    ['no method', { a: request.a, b: request.b }],
    ['a method with markup', { ...request, method: '<img>' }],
    ['an upper-case method', { ...request, method: 'LOO' }],
    ['a method too long', { ...request, method: `m${'x'.repeat(64)}` }],
  ];
  for (const [why, value] of malformed) assert.equal(isComparisonRequest(value), false, why);
  assert.equal(isRunName(''), true);
  assert.equal(isMethodId(''), false);
  assert.equal(isStepSpan({ from: 0, to: 0 }), true);
  assert.equal(isStepSpan(null), false);
});

test('the compare messages: each guard refuses another folder shape, a missing id, an unknown side', () => {
  assert.equal(CompareReadyCommand.is(CompareReadyCommand.with({ stateVersion: 1, folder: null })), true);
  assert.equal(CompareReadyCommand.is(CompareReadyCommand.with({ stateVersion: 1, folder: '/runs' })), true);
  assert.equal(CompareReadyCommand.is({ method: 'compare/ready', params: { stateVersion: -1, folder: null } }), false);
  assert.equal(CompareReadyCommand.is({ method: 'compare/ready', params: { stateVersion: 1, folder: '' } }), false);
  assert.equal(GetCompareChoicesRequest.is(GetCompareChoicesRequest.with({ folder: '/runs' }, 1)), true);
  assert.equal(GetCompareChoicesRequest.is(GetCompareChoicesRequest.with({ folder: '/runs' })), false, 'no id');
  assert.equal(CompareRunsRequest.is(CompareRunsRequest.with({ folder: '/runs', request }, 2)), true);
  assert.equal(CompareRunsRequest.is({ method: CompareRunsRequest.method, params: { folder: '/runs' }, id: 2 }), false);
  const open = { folder: '/runs', side: 'b', run: 'credit', episode: 'credit-s3-g1-r0' } as const;
  assert.equal(OpenCompareEpisodeCommand.is(OpenCompareEpisodeCommand.with(open)), true);
  for (const bad of [
    { ...open, side: 'c' },
    { ...open, episode: '' },
    { ...open, episode: 'e'.repeat(maxEpisodeIdChars + 1) },
    { ...open, run: null },
    { ...open, folder: undefined },
  ])
    assert.equal(OpenCompareEpisodeCommand.is({ method: OpenCompareEpisodeCommand.method, params: bad }), false);
});

test('cleanSide(side) keeps only the run and the steps’ two ends', () => {
  const dirty = { run: 'a', label: 'A', steps: { from: 1, to: 2, extra: 3 }, sql: 'x' } as unknown as Parameters<
    typeof cleanSide
  >[0];
  assert.deepEqual(cleanSide(dirty), { run: 'a', steps: { from: 1, to: 2 } });
  assert.deepEqual(cleanSide({ run: 'a' }), { run: 'a' });
});

test('toWire(value) turns NaN and ±Infinity into null at any depth, and keeps every finite number and string', () => {
  const value = { p: NaN, interval: [NaN, 0.25] as const, nested: [{ share: Infinity, n: 0 }], name: 'NaN', ok: true };
  assert.deepEqual(toWire(value), {
    p: null,
    interval: [null, 0.25],
    nested: [{ share: null, n: 0 }],
    name: 'NaN',
    ok: true,
  });
  assert.equal(toWire(-Infinity), null);
  assert.equal(toWire(-0.5), -0.5);
  // What JSON would carry anyway: the host's reply reads the same before and after serialization.
  assert.deepEqual(JSON.parse(JSON.stringify(value)) as unknown, toWire(value));
});
