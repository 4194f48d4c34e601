import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstError } from '../../../../src/credit/game/firstError';
import { e11PrefixValues } from './oracles';

/** credit-methods.md §8 E11; indices are 0-based (the doc's t* = 2 is index 1). */
const e11Cases = [
  { delta: 0.25, expected: { index: 1, harmful: [1, 3], repairs: [] } },
  { delta: 0.2, expected: { index: 1, harmful: [1, 3], repairs: [2] } },
];

describe('firstError', () => {
  for (const { delta, expected } of e11Cases) {
    it(`firstError(V, ${delta}) matches E11: first error t* = 2 (index 1), messages 2 and 4 harmful, repairs ${JSON.stringify(expected.repairs)}`, () => {
      assert.deepEqual(firstError(e11PrefixValues, delta), expected);
    });
  }

  it('firstError(V, δ, isSignificant) skips drops the caller finds insignificant', () => {
    assert.deepEqual(
      firstError(e11PrefixValues, 0.25, (index) => index !== 1),
      { index: 3, harmful: [3], repairs: [] },
    );
  });

  it('firstError(V, δ) labels no repair before the first error and finds nothing when no drop reaches δ', () => {
    assert.deepEqual(firstError([0, 0.5, 0.1, 0.6], 0.3), { index: 1, harmful: [1], repairs: [2] });
    assert.deepEqual(firstError([0.2, 0.5, 0.4, 0.45], 0.25), { index: undefined, harmful: [], repairs: [] });
  });

  it('firstError(V, δ) returns no error for fewer than two prefix values and ignores NaN differences', () => {
    assert.deepEqual(firstError([], 0.25), { index: undefined, harmful: [], repairs: [] });
    assert.deepEqual(firstError([0.5], 0.25), { index: undefined, harmful: [], repairs: [] });
    assert.deepEqual(firstError([0.9, NaN, 0.1, 0], 0.25), { index: undefined, harmful: [], repairs: [] });
  });

  it('firstError(V, δ) throws a RangeError for a NaN or negative δ', () => {
    assert.throws(() => firstError(e11PrefixValues, NaN), RangeError);
    assert.throws(() => firstError(e11PrefixValues, -0.1), RangeError);
  });
});
