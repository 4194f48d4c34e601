import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comaAdvantages, comaBaseline } from '../../../../src/credit/signals/comaBaseline';
import { assertClose } from '../stats/assertClose';

// credit-methods.md §8 E8: options (a, b, c), π = (0.5, 0.3, 0.2), Q = (1, 0, 0.5).
const policy = [0.5, 0.3, 0.2];
const q = [1, 0, 0.5];

describe('comaBaseline', () => {
  it('comaBaseline(policy, q) gives the E8 baseline 0.6', () => assertClose(comaBaseline(policy, q), 0.6, 1e-12));

  it('comaBaseline(policy, q) self-normalises a truncated menu', () => {
    assertClose(comaBaseline([0.25, 0.15, 0.1], q), 0.6, 1e-12);
  });

  it('comaBaseline(weights, rewards) with equal weights is the mean of K resamples (form a)', () => {
    assertClose(comaBaseline([1, 1, 1, 1], [1, 0, 0, 1]), 0.5, 1e-12);
  });

  it('comaBaseline(policy, q) is NaN for an empty menu or zero weights and throws on misaligned inputs', () => {
    assert.ok(Number.isNaN(comaBaseline([], [])));
    assert.ok(Number.isNaN(comaBaseline([0, 0], [1, 0])));
    assert.throws(() => comaBaseline([1], [1, 2]), RangeError);
  });
});

describe('comaAdvantages', () => {
  it('comaAdvantages(policy, q) gives A = (0.4, −0.6, −0.1) (E8)', () => {
    assertClose(comaAdvantages(policy, q), [0.4, -0.6, -0.1], 1e-12);
  });

  it('comaAdvantages(policy, q) averages to 0 under the policy (E8: Σ π·A = 0)', () => {
    const a = comaAdvantages(policy, q);
    assertClose(
      policy.reduce((sum, p, k) => sum + p * a[k]!, 0),
      0,
      1e-12,
    );
  });
});
