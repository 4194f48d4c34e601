import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentSummaries } from '../../../src/engine/credit/creditSummary';

test('agentSummaries(values) gives the mean, a 95% interval and first- vs last-quarter means', () => {
  const pairs: [number, number][] = [];
  for (let step = 1; step <= 40; step++) pairs.push([step, step <= 10 ? 1 : 0], [step, step <= 10 ? 0.5 : 0]);
  const [summary] = agentSummaries(new Map([['verifier', pairs]]));
  assert.equal(summary?.episodes, 80);
  assert.ok(Math.abs((summary?.mean ?? 0) - 0.1875) < 1e-12);
  assert.ok(Math.abs((summary?.early ?? 0) - 0.75) < 1e-12, 'steps 1..10.75');
  assert.equal(summary?.late, 0);
  assert.ok((summary?.ci[0] ?? 1) < 0.1875 && 0.1875 < (summary?.ci[1] ?? 0));
});

test('agentSummaries(values) handles 300,000 values (no argument-spread overflow) and skips NaN', () => {
  const pairs: [number, number][] = Array.from({ length: 300_000 }, (_, i) => [i % 500, i % 2]);
  pairs.push([3, Number.NaN]);
  const [summary] = agentSummaries(new Map([['a', pairs]]));
  assert.equal(summary?.episodes, 300_000);
  assert.ok(Math.abs((summary?.mean ?? 0) - 0.5) < 1e-12);
});

test('agentSummaries(values) gives a zero-width interval for one value and NaN for none', () => {
  const [one, none] = agentSummaries(
    new Map([
      ['a', [[1, 0.3]]],
      ['b', []],
    ]),
  );
  assert.deepEqual(one?.ci, [0.3, 0.3]);
  assert.ok(Number.isNaN(none?.mean));
});
