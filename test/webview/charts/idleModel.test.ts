import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idleModel } from '../../../webview/src/charts/idleModel';
import { agents, smallOverview } from './fixtures';

test('idleModel draws idle rate on [0, 1] per agent', () => {
  const model = idleModel(smallOverview(), agents);
  assert.deepEqual(model.lines.yDomain, [0, 1]);
  assert.deepEqual(model.lines.series[2]?.values, [0, 0, 0, 1, 1, 1]);
  assert.equal(model.lines.hover[3]?.text, 'step 3: planner 0%, solver 0%, verifier 100%');
});

test('idleModel marks only the steps where an agent has flags, with the count', () => {
  const model = idleModel(smallOverview(), agents);
  assert.deepEqual(
    model.marks.map((m) => [m.agent, m.row, m.bin.from, m.count]),
    [
      ['verifier', 2, 3, 2],
      ['verifier', 2, 4, 2],
      ['verifier', 2, 5, 1],
    ],
  );
  assert.equal(model.maxCount, 2);
  assert.equal(model.marks[2]?.text, 'verifier, step 5: 1 flag');
});

test('idleModel bins flag counts by their maximum when steps outnumber the bins', () => {
  const model = idleModel(smallOverview(), agents, 2);
  assert.equal(model.bins, 2);
  assert.deepEqual(
    model.marks.map((m) => [m.bin.from, m.bin.to, m.count]),
    [[3, 5, 2]],
  );
});
