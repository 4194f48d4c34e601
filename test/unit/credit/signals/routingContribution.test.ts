import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  routingMarginalContributions,
  routingValue,
  routingValuesWithout,
  winnerTakeAllExpected,
} from '../../../../src/credit/signals/routingContribution';
import { exactShapley } from '../evaluator/exactShapley';
import { assertClose } from '../stats/assertClose';

// credit-methods.md §8 E5.
const twoExperts = { probs: [0.7, 0.3], quality: [0.5, 0.9] };
const threeExperts = { probs: [0.5, 0.3, 0.2], quality: [0.6, 0.8, 0.0] };

describe('routingValue', () => {
  const cases = [
    { name: 'two experts (E5)', ...twoExperts, value: 0.62 },
    { name: 'three experts (E5)', ...threeExperts, value: 0.54 },
    { name: 'a single certain expert', probs: [1], quality: [0.3], value: 0.3 },
  ];
  for (const c of cases) {
    it(`routingValue(probs, quality) gives V = Σ p q for ${c.name}`, () =>
      assertClose(routingValue(c.probs, c.quality), c.value, 1e-12));
  }

  it('routingValue(probs, quality) is NaN with no experts and throws on misaligned inputs', () => {
    assert.ok(Number.isNaN(routingValue([], [])));
    assert.throws(() => routingValue([0.5, 0.5], [1]), RangeError);
  });
});

describe('routingValuesWithout', () => {
  it('routingValuesWithout(probs, quality) renormalises over the remaining experts (E5)', () => {
    assertClose(routingValuesWithout(twoExperts.probs, twoExperts.quality), [0.9, 0.5], 1e-12);
    assertClose(routingValuesWithout(threeExperts.probs, threeExperts.quality), [12 / 25, 3 / 7, 27 / 40], 1e-12);
  });

  it('routingValuesWithout(probs, quality) is NaN for an expert with probability 1', () => {
    assertClose(routingValuesWithout([1, 0], [0.4, 0.9]), [NaN, 0.4], 1e-12);
  });
});

describe('routingMarginalContributions', () => {
  it('routingMarginalContributions(probs, quality) gives p_i (q_i − V_{−i}) for two experts (E5)', () => {
    assertClose(routingMarginalContributions(twoExperts.probs, twoExperts.quality), [-7 / 25, 3 / 25], 1e-12);
  });

  it('routingMarginalContributions(probs, quality) marks the always-wrong expert harmful (E5, three experts)', () => {
    assertClose(
      routingMarginalContributions(threeExperts.probs, threeExperts.quality),
      [3 / 50, 39 / 350, -27 / 200],
      1e-12,
    );
    assertClose(39 / 350, 0.111429);
  });

  it('routingMarginalContributions(probs, quality) equals V − V_{−i}', () => {
    const { probs, quality } = threeExperts;
    const v = routingValue(probs, quality);
    assertClose(
      routingMarginalContributions(probs, quality),
      Array.from(routingValuesWithout(probs, quality), (w) => v - w),
      1e-12,
    );
  });

  it('routingMarginalContributions(probs, quality) gives 0 to a never-selected expert and NaN to a certain one', () => {
    assertClose(routingMarginalContributions([0, 1], [0.9, 0.2]), [0, NaN], 0);
  });
});

describe('winnerTakeAllExpected', () => {
  it('winnerTakeAllExpected(probs, quality) ranks the worse expert higher (E5: 0.35 vs 0.27)', () => {
    assertClose(winnerTakeAllExpected(twoExperts.probs, twoExperts.quality), [0.35, 0.27], 1e-12);
  });
});

describe('routing game Shapley (E5)', () => {
  it('exact Shapley of v(∅)=0, v(1)=0.5, v(2)=0.9, v(12)=V gives (0.11, 0.51)', () => {
    const { probs, quality } = twoExperts;
    const v = [0, quality[0]!, quality[1]!, routingValue(probs, quality)];
    assertClose(
      exactShapley(2, (mask) => v[mask]!),
      [0.11, 0.51],
      1e-12,
    );
  });
});
