import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hoverBins, lineChartModel, paddedExtent, stepDomain } from '../../../webview/src/charts/lineModel';

test('stepDomain is the steps extent, widened for one step and [0, 1] for none', () => {
  assert.deepEqual(stepDomain([3, 5, 9]), [3, 9]);
  assert.deepEqual(stepDomain([4]), [3, 5]);
  assert.deepEqual(stepDomain([]), [0, 1]);
});

test('paddedExtent pads the non-null values by 5 % and is [0, 1] without values', () => {
  const [lo, hi] = paddedExtent([{ key: 'a', label: 'a', values: [0.7, null, 0.9] }]);
  assert.ok(Math.abs(lo - 0.69) < 1e-9 && Math.abs(hi - 0.91) < 1e-9);
  assert.deepEqual(paddedExtent([{ key: 'a', label: 'a', values: [null] }]), [0, 1]);
  const [flatLo, flatHi] = paddedExtent([{ key: 'a', label: 'a', values: [2, 2] }]);
  assert.ok(flatLo < 2 && flatHi > 2, 'a flat series still gets a span');
});

test('hoverBins lists every series per step, with the mean over binned steps', () => {
  const series = [
    { key: 'p', label: 'planner', values: [0.5, 0.25] },
    { key: 'v', label: 'verifier', values: [null, 0.75] },
  ];
  assert.deepEqual(
    hoverBins([0, 1], series, 10, (v) => v.toFixed(2)).map((b) => b.text),
    ['step 0: planner 0.50, verifier —', 'step 1: planner 0.25, verifier 0.75'],
  );
  assert.deepEqual(
    hoverBins([0, 1], series, 1, (v) => v.toFixed(2)).map((b) => b.text),
    ['steps 0–1 (mean): planner 0.38, verifier 0.75'],
  );
});

test('lineChartModel takes a fixed y domain when given', () => {
  const model = lineChartModel([0, 1], [{ key: 'a', label: 'a', values: [3, 4] }], { yDomain: [0, 1] });
  assert.deepEqual(model.yDomain, [0, 1]);
  assert.deepEqual(model.xDomain, [0, 1]);
  assert.equal(model.hover.length, 2);
});
