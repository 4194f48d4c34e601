import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeStepRanges, stepWindows } from '../../../../src/credit/audit/stepWindows';

const counts = (pairs: [number, number][]): { step: number; episodes: number }[] =>
  pairs.map(([step, episodes]) => ({ step, episodes }));

describe('stepWindows', () => {
  it('stepWindows(counts, 60) merges consecutive steps until each window has ≥ 60 episodes; the 20-episode tail joins the last window', () => {
    const windows = stepWindows(
      counts([
        [0, 30],
        [1, 30],
        [2, 50],
        [3, 10],
        [4, 90],
        [5, 20],
      ]),
      60,
    );
    assert.deepEqual(windows, [
      { from: 0, to: 1, episodes: 60 },
      { from: 2, to: 3, episodes: 60 },
      { from: 4, to: 5, episodes: 110 },
    ]);
  });

  it('stepWindows(counts, 60) sorts steps and sums repeated steps', () => {
    const windows = stepWindows(
      counts([
        [20, 40],
        [0, 30],
        [10, 10],
        [0, 30],
        [30, 60],
      ]),
      60,
    );
    // Sorted: 0 → 60, 10 → 10, 20 → 40, 30 → 60.
    assert.deepEqual(windows, [
      { from: 0, to: 0, episodes: 60 },
      { from: 10, to: 30, episodes: 110 },
    ]);
  });

  it('stepWindows(counts, 100) gives one short window when the whole run has fewer episodes', () => {
    assert.deepEqual(
      stepWindows(
        counts([
          [1, 10],
          [2, 20],
        ]),
        100,
      ),
      [{ from: 1, to: 2, episodes: 30 }],
    );
  });

  it('stepWindows(counts, 10) keeps a tail that reaches the minimum as its own window', () => {
    assert.deepEqual(
      stepWindows(
        counts([
          [1, 10],
          [2, 10],
        ]),
        10,
      ),
      [
        { from: 1, to: 1, episodes: 10 },
        { from: 2, to: 2, episodes: 10 },
      ],
    );
  });

  it('stepWindows(counts, 1) lets a step with 0 episodes join the next; stepWindows(counts, 0) keeps every step', () => {
    assert.deepEqual(
      stepWindows(
        counts([
          [1, 0],
          [2, 5],
          [3, 5],
        ]),
        1,
      ),
      [
        { from: 1, to: 2, episodes: 5 },
        { from: 3, to: 3, episodes: 5 },
      ],
    );
    assert.equal(
      stepWindows(
        counts([
          [1, 0],
          [2, 5],
          [3, 5],
        ]),
        0,
      ).length,
      3,
    );
  });

  it('stepWindows([], 100) is []', () => assert.deepEqual(stepWindows([], 100), []));

  it('stepWindows(counts, n) throws RangeError for negative or non-finite counts, NaN steps or a NaN minimum', () => {
    assert.throws(() => stepWindows(counts([[1, -1]]), 10), RangeError);
    assert.throws(() => stepWindows(counts([[NaN, 1]]), 10), RangeError);
    assert.throws(() => stepWindows(counts([[1, Infinity]]), 10), RangeError);
    assert.throws(() => stepWindows(counts([[1, 1]]), NaN), RangeError);
  });
});

describe('mergeStepRanges', () => {
  const steps = [0, 10, 20, 30, 40];

  it('mergeStepRanges(ranges, steps) merges ranges adjacent in the observed steps ([0, 10] + [20, 20]) and keeps a gap over step 30', () => {
    assert.deepEqual(
      mergeStepRanges(
        [
          [20, 20],
          [0, 10],
          [40, 40],
        ],
        steps,
      ),
      [
        [0, 20],
        [40, 40],
      ],
    );
  });

  it('mergeStepRanges(ranges, steps) merges overlapping and nested ranges', () => {
    assert.deepEqual(
      mergeStepRanges(
        [
          [0, 20],
          [10, 30],
          [15, 20],
        ],
        steps,
      ),
      [[0, 30]],
    );
  });

  it('mergeStepRanges(ranges, steps) keeps ranges separated by an observed step', () => {
    assert.deepEqual(
      mergeStepRanges(
        [
          [0, 0],
          [20, 20],
        ],
        steps,
      ),
      [
        [0, 0],
        [20, 20],
      ],
    );
  });

  it('mergeStepRanges(ranges, unsorted steps with repeats) treats unobserved numbers between ranges as no gap', () => {
    assert.deepEqual(
      mergeStepRanges(
        [
          [0, 3],
          [7, 9],
        ],
        [9, 0, 3, 7, 3],
      ),
      [[0, 9]],
    );
  });

  it('mergeStepRanges(ranges, steps) does not mutate its input and returns [] for no ranges', () => {
    const ranges: [number, number][] = [
      [0, 10],
      [20, 20],
    ];
    mergeStepRanges(ranges, steps);
    assert.deepEqual(ranges, [
      [0, 10],
      [20, 20],
    ]);
    assert.deepEqual(mergeStepRanges([], steps), []);
  });

  it('mergeStepRanges([[5, 1]], steps) throws RangeError', () => {
    assert.throws(() => mergeStepRanges([[5, 1]], steps), RangeError);
  });
});
