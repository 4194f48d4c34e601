import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstAndLast, rewardModel, rewardSummary } from '../../../webview/src/charts/rewardModel';

test('rewardModel is one series of the team reward with 3-decimal tooltips', () => {
  const model = rewardModel({ steps: [0, 1, 2], teamReward: [0.72, null, 0.9] });
  assert.equal(model.series.length, 1);
  assert.deepEqual(model.series[0]?.values, [0.72, null, 0.9]);
  assert.equal(model.hover[0]?.text, 'step 0: team reward 0.720');
  assert.equal(model.hover[1]?.text, 'step 1: team reward —');
});

test('firstAndLast skips nulls at either end', () => {
  assert.deepEqual(firstAndLast([0, 1, 2, 3], [null, 0.7, 0.8, null]), { first: [1, 0.7], last: [2, 0.8] });
  assert.equal(firstAndLast([0], [null]), undefined);
});

test('rewardSummary reads the first and last logged reward', () => {
  assert.equal(
    rewardSummary({ steps: [0, 59], teamReward: [0.72, 0.9] }),
    'Team reward 0.720 at step 0 → 0.900 at step 59.',
  );
  assert.equal(rewardSummary({ steps: [], teamReward: [] }), 'No team reward logged for these steps.');
});
