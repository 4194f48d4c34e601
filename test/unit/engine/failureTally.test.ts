import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunFailure } from '../../../src/engine/credit/creditJob';
import { FailureTally, failureSampleSize } from '../../../src/engine/credit/failureTally';

// A pass's failures in bounded memory (src/engine/credit/failureTally.ts): every one counted, the
// first ones kept whole, grouped by status and reason with exact counts.

const failure = (i: number, reason: string, unidentified = false): RunFailure => ({
  episodeId: i,
  reason,
  where: `t.jsonl:${i + 1}`,
  episode: `e${i}`,
  step: i % 7,
  ...(unidentified ? { status: 'not-identifiable' as const, remedy: 'log the counterfactuals' } : {}),
});

test('counts every failure, keeps the first ones in order, and groups them by status and reason', () => {
  const tally = new FailureTally();
  const n = failureSampleSize * 3;
  for (let i = 0; i < n; i++) tally.add(failure(i, i % 3 === 0 ? 'boom' : 'no values', i % 3 !== 0));
  const report = tally.report();
  assert.equal(report.failed, n / 3);
  assert.equal(report.unidentified, (2 * n) / 3);
  assert.equal(report.failures.length, failureSampleSize);
  assert.deepEqual(
    report.failures.map((f) => f.episodeId),
    Array.from({ length: failureSampleSize }, (_, i) => i),
  );
  assert.deepEqual(
    report.problems.map((g) => [g.first.status ?? 'failed', g.first.reason, g.n, g.first.episodeId]),
    [
      ['not-identifiable', 'no values', (2 * n) / 3, 1],
      ['failed', 'boom', n / 3, 0],
    ],
  );
  assert.equal(report.ungrouped, 0);
});

test('the same reason under two statuses is two groups', () => {
  const tally = new FailureTally();
  tally.add(failure(0, 'x'));
  tally.add(failure(1, 'x', true));
  assert.equal(tally.grouped().length, 2);
});

test('past 200 distinct reasons, failures are counted apart, and none is lost from the counts', () => {
  const tally = new FailureTally();
  for (let i = 0; i < 250; i++) tally.add(failure(i, `reason ${i}`));
  tally.add(failure(250, 'reason 3'));
  const report = tally.report();
  assert.equal(report.problems.length, 200);
  assert.equal(report.ungrouped, 50);
  assert.equal(report.failed, 251);
  assert.equal(report.problems.reduce((sum, g) => sum + g.n, 0) + report.ungrouped, 251);
  assert.equal(report.problems[0]?.first.reason, 'reason 3');
});
