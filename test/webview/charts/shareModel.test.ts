import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shareModel, shareSeries, shareSummary, stackLayers, trend } from '../../../webview/src/charts/shareModel';
import { agents, smallOverview } from './fixtures';

test('shareSeries gives each agent its share per step, in the given order', () => {
  const series = shareSeries(smallOverview(), agents);
  assert.deepEqual(
    series.map((s) => s.key),
    agents,
  );
  assert.deepEqual(series[2]?.values, [0.3, 0.3, 0.3, 0, 0, null]);
});

test('stackLayers stacks in order and counts a missing share as 0', () => {
  const layers = stackLayers(shareSeries(smallOverview(), agents), 6);
  assert.deepEqual(layers[0]?.bands[0], [0, 0.3]);
  assert.deepEqual(layers[1]?.bands[0], [0.3, 0.7]);
  const top = layers[2]?.bands[0];
  assert.ok(top && Math.abs(top[1] - 1) < 1e-12);
  assert.deepEqual(layers[2]?.bands[5], [1, 1], 'null share: a zero-height band');
});

test('shareModel: lines on [0, 1], stack top at least 1', () => {
  const model = shareModel(smallOverview(), agents);
  assert.deepEqual(model.lines.yDomain, [0, 1]);
  assert.equal(model.stackMax, 1);
  assert.equal(model.layers.length, 3);
  const over = shareModel({ steps: [0], creditShare: { rows: ['a', 'b'], cols: [0], values: [0.8, 0.7] } }, ['a', 'b']);
  assert.ok(Math.abs(over.stackMax - 1.5) < 1e-12, 'shares adding up to more than 1 raise the stack top');
});

test('trend compares the first and last k values; the summary shows the collapse', () => {
  assert.deepEqual(trend([1, null, 3, 5], 2), [2, 4]);
  assert.equal(trend([null]), undefined);
  const summary = shareSummary(shareSeries(smallOverview(), agents).map((s) => ({ ...s })));
  assert.match(summary, /verifier 0\.30 → 0\.00/);
  assert.equal(shareSummary([]), 'No credit shares for these steps.');
  const k2 = trend(shareSeries(smallOverview(), agents)[2]?.values ?? [], 2);
  assert.deepEqual(k2, [0.3, 0]);
});
