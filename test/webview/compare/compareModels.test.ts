import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CompareRunChoice } from '../../../src/core/runComparison';
import type { ComparisonView } from '../../../src/protocol/comparePanel';
import { formatP, formatPointChange } from '../../../webview/src/kit/format';
import {
  flagChangeText,
  pairingSentences,
  shareChangeText,
  statusSourceText,
  type AgentView,
} from '../../../webview/src/compare/compareText';
import { intervalModel } from '../../../webview/src/compare/intervalModel';
import { initialSelection, readSide } from '../../../webview/src/compare/pickerModel';
import { restoreCompareState } from '../../../webview/src/compare/state';

function agent(name: string, difference: number | null, interval: [number | null, number | null], n = 10): AgentView {
  return {
    agent: name,
    credit: { n, meanA: 0, meanB: difference, difference, interval, p: 0.04, test: 't' },
    shareA: 0.2,
    shareB: 0.3,
    statusA: 'exact',
    statusB: difference === null ? 'not-identifiable' : 'exact',
    ...(difference === null ? { missing: 'side B has no credit' } : {}),
  };
}

test('intervalModel(agents): an axis holding 0 and every end, padded by 10%; verdicts by which side of 0 the interval lies', () => {
  const model = intervalModel([
    agent('up', 0.2, [0.1, 0.3]),
    agent('down', -0.1, [-0.15, -0.05]),
    agent('cross', 0.05, [-0.02, 0.12]),
    agent('single', 0.4, [null, null], 1),
    agent('none', null, [null, null], 0),
  ]);
  // Ends: low −0.15, high 0.4 (the single pair's mean) → span 0.55, pad 0.055.
  assert.deepEqual(
    model.domain.map((v) => Number(v.toFixed(6))),
    [-0.205, 0.455],
  );
  assert.deepEqual(
    model.rows.map((r) => [r.agent, r.verdict, r.interval]),
    [
      ['up', 'up', [0.1, 0.3]],
      ['down', 'down', [-0.15, -0.05]],
      ['cross', 'unclear', [-0.02, 0.12]],
      ['single', 'unclear', null],
      ['none', 'none', null],
    ],
  );
  assert.equal(model.rows[3]?.label, '+0.400 no interval (fewer than 2 pairs) (1 pair)');
  assert.equal(model.rows[4]?.label, 'not identifiable: side B has no credit');
  assert.equal(model.rows[4]?.difference, null, 'never a number the data cannot give');
  // Nothing but zero: a unit axis rather than a zero-width one.
  assert.deepEqual(intervalModel([agent('none', null, [null, null], 0)]).domain, [-1, 1]);
  assert.deepEqual(intervalModel([]).domain, [-1, 1]);
});

const runs: CompareRunChoice[] = [
  { run: 'base', episodes: 10, steps: { from: 1, to: 60 }, methods: ['shared', 'loo'] },
  { run: 'credit', episodes: 10, steps: { from: 1, to: 60 }, methods: ['loo', 'shapley'] },
  { run: '', episodes: 2, methods: ['loo'] },
];

test('readSide(choice, input): all steps, one open end filled from the run, and every bad range said in words', () => {
  const base = runs[0];
  assert.deepEqual(readSide(base, { run: 0, from: '', to: '' }, 'A'), { ok: true, side: { run: 'base' } });
  assert.deepEqual(readSide(base, { run: 0, from: ' 40 ', to: '' }, 'A'), {
    ok: true,
    side: { run: 'base', steps: { from: 40, to: 60 } },
  });
  assert.deepEqual(readSide(base, { run: 0, from: '', to: '-0' }, 'A'), {
    ok: false,
    error: 'Side A: the range 1–0 is empty.',
  });
  const errors: [string, string, string][] = [
    ['1.5', '', 'Side B: steps must be whole numbers.'],
    ['x', '', 'Side B: steps must be whole numbers.'],
    ['50', '10', 'Side B: the range 50–10 is empty.'],
    ['70', '90', "Side B: steps 70–90 lie outside the run's steps 1–60."],
  ];
  for (const [from, to, error] of errors)
    assert.deepEqual(readSide(base, { run: 0, from, to }, 'B'), { ok: false, error });
  assert.deepEqual(readSide(runs[2], { run: 2, from: '1', to: '' }, 'A'), {
    ok: false,
    error: 'Side A: run (root) logs no steps, so it cannot be cut by step.',
  });
  assert.deepEqual(readSide(undefined, { run: 9, from: '', to: '' }, 'A'), {
    ok: false,
    error: 'Side A: choose a run.',
  });
});

test('initialSelection(runs, saved, default): the saved request when its runs remain, else the first two runs, said', () => {
  const saved = { a: { run: 'credit' }, b: { run: 'base', steps: { from: 5, to: 9 } }, method: 'shapley' };
  const restored = initialSelection(runs, saved, 'loo');
  assert.equal(restored.restored, true);
  // shapley is not stored on both: the default (loo) is, so it is chosen.
  assert.deepEqual(restored.selection, {
    a: { run: 1, from: '', to: '' },
    b: { run: 0, from: '5', to: '9' },
    method: 'loo',
  });
  const gone = initialSelection(runs, { ...saved, a: { run: 'deleted' } }, 'shapley');
  assert.equal(gone.restored, false);
  assert.equal(gone.note, 'The runs compared last are no longer in the index: choose two runs.');
  assert.deepEqual(gone.selection, { a: { run: 0, from: '', to: '' }, b: { run: 1, from: '', to: '' }, method: 'loo' });
  const one = initialSelection([runs[0]!], null, 'owen');
  assert.deepEqual(one.selection.b, { run: 0, from: '', to: '' }, 'one run: two step ranges of it');
  assert.equal(one.selection.method, 'shared', 'the first stored method when the default is not');
  assert.equal(one.note, null);
  assert.equal(initialSelection([runs[0]!, { ...runs[1]!, methods: [] }], null, 'loo').selection.method, null);
});

test('restoreCompareState(raw): a request that fails its guard falls back alone; another version is nothing saved', () => {
  const request = { a: { run: 'base' }, b: { run: 'credit' }, method: 'loo' };
  assert.deepEqual(restoreCompareState({ version: 1, folder: '/runs', request }), {
    version: 1,
    folder: '/runs',
    request,
  });
  assert.deepEqual(restoreCompareState({ version: 1, folder: '/runs', request: { ...request, method: '<b>' } }), {
    version: 1,
    folder: '/runs',
    request: null,
  });
  assert.deepEqual(restoreCompareState({ version: 2, folder: '/runs', request }), {
    version: 1,
    folder: null,
    request: null,
  });
  assert.deepEqual(restoreCompareState('garbage'), { version: 1, folder: null, request: null });
});

test('the Compare view’s words: p, share change, flags, the pairing summary (unpaired said, the none key said)', () => {
  assert.deepEqual([0.0004, 0.001, 0.0123, 0.5, null].map(formatP), [
    'p < 0.001',
    'p = 0.001',
    'p = 0.012',
    'p = 0.5',
    'p undefined',
  ]);
  assert.deepEqual([0.26, -0.025, 0.00001, null].map(formatPointChange), ['+26.0 pp', '−2.5 pp', '0.0 pp', '—']);
  assert.equal(
    flagChangeText({ agent: 'v', kind: 'free-rider', change: 'disappeared', stepsA: [25, 40] }),
    'free-rider disappeared (steps 25–40)',
  );
  assert.equal(
    flagChangeText({ agent: 'v', kind: 'idle', change: 'appeared', stepsB: [7, 7] }),
    'idle appeared (step 7)',
  );
  assert.equal(flagChangeText({ agent: 'v', kind: 'idle', change: 'kept' }), 'idle kept');
  const c = {
    a: { run: 'base', label: 'base' },
    b: { run: 'credit', label: 'credit' },
    pairing: { key: 'prompt', pairs: 1, episodesA: 3, episodesB: 1, unpairedA: 2, unpairedB: 0, ambiguousKeys: 1 },
  } as unknown as ComparisonView;
  assert.deepEqual(pairingSentences(c), [
    '1 pair by prompt, of 3 episodes in A and 1 episode in B.',
    'Unpaired, counted and excluded: 2 episodes of A and 0 episodes of B had no partner on the other side.',
    '1 key matched several episodes on a side (GRPO rollouts): paired by group and rollout index, else in order.',
  ]);
  const none = {
    ...c,
    pairing: { ...c.pairing, key: 'none', pairs: 0, unpairedA: 0, ambiguousKeys: 0 },
  } as ComparisonView;
  assert.deepEqual(pairingSentences(none), [
    'No episode of base could be paired with one of credit: they share no task or prompt.',
  ]);
});

test("shareChangeText: the engine's paired share difference with its interval; the plain change without one", () => {
  const plain = agent('verifier', 0.1, [0.05, 0.15]);
  assert.equal(shareChangeText(plain), '+10.0 pp', 'shareB − shareA when the engine sent no paired share');
  const paired: AgentView = {
    ...plain,
    share: {
      n: 160,
      meanA: 0.104,
      meanB: 0.208,
      difference: 0.11,
      interval: [0.097, 0.123],
      p: 0.0001,
      test: 'normal',
    },
  };
  assert.equal(shareChangeText(paired), '+11.0 pp [+9.7, +12.3] pp');
  const single: AgentView = { ...plain, share: { ...paired.share!, n: 1, interval: [null, null] } };
  assert.equal(shareChangeText(single), '+11.0 pp', 'no interval from one pair, and none invented');
});

test('statusSourceText: the status with where its values came from, the status alone without a source', () => {
  assert.equal(statusSourceText('exact', 'logged'), 'exact (logged)');
  assert.equal(statusSourceText('approximate', 'logged+checked'), 'approximate (logged+checked)');
  assert.equal(statusSourceText('not-identifiable', undefined), 'not identifiable');
});
