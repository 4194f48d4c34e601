import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../../src/core/mulberry32';
import type { ComputedStatus } from '../../../src/core/provenance';
import { pairedStatistics } from '../../../src/credit/stats/pairedStatistics';
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

/** The implementation that kept every (step, value) pair, as the oracle of the running summary. */
function storedPairsSummary(pairs: readonly (readonly [number, number, ComputedStatus?])[]) {
  const finite = pairs.filter(([, v]) => Number.isFinite(v));
  let lo = Infinity;
  let hi = -Infinity;
  for (const [step] of finite) {
    lo = Math.min(lo, step);
    hi = Math.max(hi, step);
  }
  const quarter = (hi - lo) / 4;
  const mean = (values: readonly number[]): number =>
    values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
  const stats = pairedStatistics(finite.map(([, v]) => v));
  const status: Record<ComputedStatus, number> = { exact: 0, estimated: 0, approximate: 0 };
  for (const [, , s] of finite) status[s ?? 'exact']++;
  return {
    episodes: finite.length,
    mean: stats.mean,
    ci: stats.n < 2 ? [stats.mean, stats.mean] : stats.ci95,
    early: mean(finite.filter(([s]) => s <= lo + quarter).map(([, v]) => v)),
    late: mean(finite.filter(([s]) => s >= hi - quarter).map(([, v]) => v)),
    status,
  };
}

const close = (a: number, b: number): boolean =>
  (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

test('agentSummaries(values) keeps no pairs yet prints what the stored pairs gave, on 300 seeded runs', () => {
  const statuses: ComputedStatus[] = ['exact', 'estimated', 'approximate'];
  for (let seed = 1; seed <= 300; seed++) {
    const uniform = mulberry32(seed);
    const n = Math.floor(uniform() * 400);
    const steps = 1 + Math.floor(uniform() * 60);
    // Shuffled steps, logged-value-like credit (-1, 0, 1, halves) and real-valued credit, a few NaN.
    const pairs = Array.from({ length: n }, (): [number, number, ComputedStatus] => [
      Math.floor(uniform() * steps) * 10,
      uniform() < 0.02 ? Number.NaN : seed % 2 === 0 ? Math.round(uniform() * 4 - 2) / 2 : uniform() * 3 - 1,
      statuses[Math.floor(uniform() * 3)] ?? 'exact',
    ]);
    const [summary] = agentSummaries(new Map([['agent', pairs]]));
    const expected = storedPairsSummary(pairs);
    assert.ok(summary);
    assert.equal(summary.episodes, expected.episodes, `seed ${seed}`);
    assert.ok(Object.is(summary.mean, expected.mean), `seed ${seed}: the mean is summed in the same order`);
    assert.deepEqual(summary.status, expected.status);
    for (const [got, want] of [
      [summary.ci[0], expected.ci[0]],
      [summary.ci[1], expected.ci[1]],
      [summary.early, expected.early],
      [summary.late, expected.late],
    ] as const)
      assert.ok(close(got, want ?? Number.NaN), `seed ${seed}: ${got} vs ${want}`);
    // What the credit report prints (3 decimals) is unchanged.
    assert.equal(summary.ci.map((v) => v.toFixed(3)).join(), expected.ci.map((v) => (v ?? NaN).toFixed(3)).join());
  }
});
