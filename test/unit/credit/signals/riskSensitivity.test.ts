import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  expectedSelection,
  selectionProbability,
  selectionSpreadEffect,
} from '../../../../src/credit/signals/riskSensitivity';
import { assertClose } from '../stats/assertClose';

// credit-methods.md §8 E6: two experts, τ = 1, opponent score 0, ±1 spread with the mean unchanged.
const table = [
  { name: 'underdog', score: -1, p: 0.268941, spread: 0.309601, change: 0.04066, approx: 0.045429 },
  { name: 'leader', score: 1, p: 0.731059, spread: 0.690399, change: -0.04066, approx: -0.045429 },
];

describe('risk sensitivity of softmax routing (E6)', () => {
  for (const row of table) {
    it(`selectionProbability(score, 0, 1) and expectedSelection([score ± 1], 0, 1) for the ${row.name}`, () => {
      const p = selectionProbability(row.score, 0, 1);
      const spread = expectedSelection([row.score - 1, row.score + 1], 0, 1);
      assertClose(p, row.p);
      assertClose(spread, row.spread);
      assertClose(spread - p, row.change);
    });

    it(`selectionSpreadEffect(p, 1, 1) gives the second-order approximation ${row.approx} for the ${row.name}`, () => {
      const p = selectionProbability(row.score, 0, 1);
      const approx = selectionSpreadEffect(p, 1, 1);
      assertClose(approx, row.approx);
      assert.equal(Math.sign(approx), Math.sign(row.change));
    });
  }

  it('selectionSpreadEffect(½, σ², τ) is 0: a tied expert is risk-neutral', () => {
    assert.equal(selectionSpreadEffect(0.5, 4, 2), 0);
  });

  it('selectionSpreadEffect(p, σ², τ) matches the exact spread effect for small noise', () => {
    const sigma = 0.01;
    const p = selectionProbability(-1, 0, 1);
    const exact = expectedSelection([-1 - sigma, -1 + sigma], 0, 1) - p;
    assertClose(selectionSpreadEffect(p, sigma * sigma, 1), exact, 1e-9);
  });

  it('selectionProbability(s, s_opp, τ) stays finite and monotone for extreme scores and scales with τ', () => {
    assert.equal(selectionProbability(-1000, 0, 1), 0);
    assert.equal(selectionProbability(1000, 0, 1), 1);
    assertClose(selectionProbability(-2, 0, 2), selectionProbability(-1, 0, 1), 1e-15);
  });

  it('expectedSelection(scores, s_opp, τ) skips NaN scores and is NaN with none', () => {
    assertClose(expectedSelection([-2, NaN, 0], 0, 1), 0.309601);
    assert.ok(Number.isNaN(expectedSelection([], 0, 1)));
  });

  it('selectionProbability(s, s_opp, τ) throws for a non-positive temperature', () => {
    assert.throws(() => selectionProbability(0, 0, 0), RangeError);
    assert.throws(() => expectedSelection([0], 0, -1), RangeError);
  });
});
