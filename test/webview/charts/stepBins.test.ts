import assert from 'node:assert/strict';
import { test } from 'node:test';
import { binLabel, binMean, stepBins, thinTicks } from '../../../webview/src/charts/stepBins';

test('stepBins(steps, maxBins) keeps one step per bin when they fit', () => {
  const bins = stepBins([0, 1, 2, 5], 10);
  assert.deepEqual(
    bins.map((b) => [b.from, b.to, b.start, b.end, b.index]),
    [
      [0, 0, 0, 1, 0],
      [1, 1, 1, 2, 1],
      [2, 2, 2, 3, 2],
      [5, 5, 3, 4, 3],
    ],
  );
  assert.deepEqual(
    bins.map((b) => b.key),
    ['0-0', '1-1', '2-2', '5-5'],
  );
});

test('stepBins(steps, maxBins) groups consecutive steps into at most maxBins bins', () => {
  const steps = Array.from({ length: 2400 }, (_, i) => i);
  const bins = stepBins(steps, 400);
  assert.ok(bins.length <= 400);
  assert.equal(bins[0]?.from, 0);
  assert.equal(bins[0]?.to, 5);
  assert.equal(bins[bins.length - 1]?.to, 2399);
  assert.equal(
    bins.reduce((n, b) => n + b.end - b.start, 0),
    2400,
    'every step in exactly one bin',
  );
});

test('stepBins gives no bins for no steps and treats maxBins < 1 as 1', () => {
  assert.deepEqual(stepBins([], 10), []);
  assert.equal(stepBins([1, 2, 3], 0).length, 1);
});

test('binMean(values, bin) skips nulls and is null for a bin without values', () => {
  const [bin] = stepBins([0, 1, 2], 1);
  assert.ok(bin);
  assert.equal(binMean([1, null, 3], bin), 2);
  assert.equal(binMean([null, null, null], bin), null);
});

test('thinTicks keeps every k-th value, the first always', () => {
  assert.deepEqual(thinTicks([0, 1, 2, 3, 4, 5, 6], 3), [0, 3, 6]);
  assert.deepEqual(thinTicks([0, 1], 10), [0, 1]);
  assert.deepEqual(thinTicks([], 3), []);
});

test('binLabel reads a single step or a range', () => {
  assert.equal(binLabel({ from: 3, to: 3 }), 'step 3');
  assert.equal(binLabel({ from: 3, to: 7 }), 'steps 3–7');
});
