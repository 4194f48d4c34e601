import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addedVariance,
  budgetAllocation,
  controlVariateEstimate,
  controlVariateVariance,
} from '../../../../src/credit/stats/budgetAllocation';
import { assertClose, seededUniform } from './assertClose';

// credit-methods.md §8 E12.
const e = [0.4, 0.1, 0.2, 0.3];
const cases = [
  {
    name: 'unit costs',
    e,
    budget: 2,
    costs: undefined,
    q: [0.8, 0.2, 0.4, 0.6],
    variance: 0.2,
    uniformQ: 0.5,
    uniformVariance: 0.3,
  },
  {
    name: 'capping',
    e: [0.9, 0.05, 0.05],
    budget: 1.5,
    costs: undefined,
    q: [1, 0.25, 0.25],
    variance: 0.015,
    uniformQ: 0.5,
    uniformVariance: 0.815,
  },
  {
    name: 'unequal costs',
    e,
    budget: 2,
    costs: [4, 1, 1, 1],
    q: [2 / 7, 1 / 7, 2 / 7, 3 / 7],
    variance: 0.68,
    uniformQ: 2 / 7,
    uniformVariance: 0.75,
  },
];

describe('budgetAllocation', () => {
  for (const c of cases) {
    it(`budgetAllocation(e, B, costs) gives the E12 allocation with ${c.name}`, () => {
      const { q, variance } = budgetAllocation(c.e, c.budget, c.costs);
      assertClose(q, c.q, 1e-12);
      assertClose(variance, c.variance, 1e-12);
      const spent = Array.from(q).reduce((sum, qj, j) => sum + qj * (c.costs?.[j] ?? 1), 0);
      assertClose(spent, c.budget, 1e-12);
    });

    it(`addedVariance(e, uniform q) is larger than the optimum with ${c.name} (E12)`, () => {
      const uniform = c.e.map(() => c.uniformQ);
      assertClose(addedVariance(c.e, uniform), c.uniformVariance, 1e-12);
      assert.ok(addedVariance(c.e, uniform) > c.variance);
    });
  }

  it('budgetAllocation(e, B) matches the closed form (Σe)²/B − Σe² when nothing is capped (E12: 1/2 − 0.30)', () => {
    assertClose(budgetAllocation(e, 2).variance, 1 ** 2 / 2 - 0.3, 1e-12);
  });

  it('budgetAllocation(e, B) evaluates everything when the budget covers every item', () => {
    const { q, variance } = budgetAllocation(e, 10);
    assertClose(q, [1, 1, 1, 1], 0);
    assert.equal(variance, 0);
  });

  it('budgetAllocation(e, B, costs) skips items whose learned value is exact and evaluates free items', () => {
    const { q, variance } = budgetAllocation([0, 0.5, 0.5, 0.3], 1, [1, 1, 1, 0]);
    assertClose(q, [0, 0.5, 0.5, 1], 1e-12);
    assertClose(variance, 0.25 + 0.25, 1e-12);
  });

  it('budgetAllocation(e, 0) evaluates nothing and reports infinite added variance', () => {
    const { q, variance } = budgetAllocation([0.1, 0.2], 0);
    assertClose(q, [0, 0], 0);
    assert.equal(variance, Infinity);
  });

  it('budgetAllocation(e, B) cascades caps over several items', () => {
    const { q } = budgetAllocation([1, 0.9, 0.1, 0.1], 2.5);
    assertClose(q, [1, 1, 0.25, 0.25], 1e-12);
  });

  it('budgetAllocation(e, B, costs) throws on negative or NaN inputs and misaligned costs', () => {
    assert.throws(() => budgetAllocation([0.1, -0.2], 1), RangeError);
    assert.throws(() => budgetAllocation([0.1, NaN], 1), RangeError);
    assert.throws(() => budgetAllocation([0.1], -1), RangeError);
    assert.throws(() => budgetAllocation([0.1, 0.2], 1, [1]), RangeError);
  });
});

describe('controlVariateEstimate', () => {
  // E12 unbiasedness case.
  const delta = [1, 0, -1, 0.5];
  const m = [0.6, 0.1, -0.5, 0.5];
  const q = [0.8, 0.2, 0.4, 0.6];
  const variances = [0.04, 0.04, 0.375, 0];

  it('controlVariateEstimate(m, Δ, q) is m + (Δ − m)/q when sampled and m otherwise', () => {
    assertClose(controlVariateEstimate(0.6, 1, 0.8), 0.6 + 0.4 / 0.8, 1e-15);
    assert.equal(controlVariateEstimate(0.6, undefined, 0.8), 0.6);
  });

  it('controlVariateEstimate(m, Δ, q) has expectation Δ over the sampling coin (E12)', () => {
    for (let j = 0; j < 4; j++) {
      const expectation =
        q[j]! * controlVariateEstimate(m[j]!, delta[j], q[j]!) +
        (1 - q[j]!) * controlVariateEstimate(m[j]!, undefined, q[j]!);
      assertClose(expectation, delta[j]!, 1e-12);
    }
  });

  it('controlVariateVariance(m, Δ, q) gives (1/q − 1)(Δ − m)² = 0.04, 0.04, 0.375, 0 (E12)', () => {
    assertClose(
      delta.map((d, j) => controlVariateVariance(m[j]!, d, q[j]!)),
      variances,
      1e-12,
    );
  });

  it('controlVariateEstimate reproduces the E12 mean and variance in a seeded simulation of 200k draws', () => {
    const draws = 200_000;
    const uniform = seededUniform(20_260_403);
    for (let j = 0; j < 4; j++) {
      let sum = 0;
      let sumSquares = 0;
      for (let k = 0; k < draws; k++) {
        const estimate = controlVariateEstimate(m[j]!, uniform() < q[j]! ? delta[j] : undefined, q[j]!);
        sum += estimate;
        sumSquares += estimate * estimate;
      }
      const mean = sum / draws;
      const variance = (sumSquares - draws * mean * mean) / (draws - 1);
      const se = Math.sqrt(variances[j]! / draws);
      assert.ok(Math.abs(mean - delta[j]!) <= 4 * se + 1e-12, `item ${j}: mean ${mean}, Δ ${delta[j]}, 4 SE ${4 * se}`);
      assert.ok(
        Math.abs(variance - variances[j]!) <= 0.05 * variances[j]! + 1e-12,
        `item ${j}: variance ${variance}, expected ${variances[j]}`,
      );
    }
  });

  it('controlVariateEstimate(m, Δ, q) throws for a sampled item with q outside (0, 1]', () => {
    assert.throws(() => controlVariateEstimate(0, 1, 0), RangeError);
    assert.throws(() => controlVariateVariance(0, 1, 1.5), RangeError);
  });
});
