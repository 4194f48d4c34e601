import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decoupling } from '../../../../src/credit/audit/decoupling';
import { mulberry32 } from '../../../../src/core/mulberry32';

const steps = Array.from({ length: 40 }, (_, k) => k + 1);

/** Team reward rising from 0.3 to 0.9 with seeded noise of ±0.01. */
function risingReward(seed: number): number[] {
  const uniform = mulberry32(seed);
  return steps.map((s) => 0.3 + 0.015 * s + 0.02 * (uniform() - 0.5));
}

/** Share flat at 0.5 up to step 12, then falling linearly to 0.05 at step 40. */
const plateauThenFall = steps.map((s) => (s <= 12 ? 0.5 : 0.5 - ((s - 12) * 0.45) / 28));

describe('decoupling', () => {
  it('decoupling(40 steps, reward rising, share falling after step 12) is flagged over ≈ [12, 40]', () => {
    const found = decoupling(steps, risingReward(7), plateauThenFall);
    assert.ok(found !== undefined);
    assert.ok(found.rewardRho > 0 && found.rewardP < 0.05);
    assert.ok(found.shareRho < 0 && found.shareP < 0.05);
    assert.ok(found.lastShare < 0.1);
    // The centred average (5 checkpoints) of a plateau ending at 12 peaks last at step 10.
    assert.ok(found.from >= 9 && found.from <= 13, `from ${found.from}`);
    assert.equal(found.to, 40);
  });

  it('decoupling(share rising to a peak at step 12, then falling, with noise) starts the range within 2 steps of 12', () => {
    const uniform = mulberry32(11);
    const share = steps.map(
      (s) => (s <= 12 ? 0.3 + (0.2 * s) / 12 : 0.5 - ((s - 12) * 0.45) / 28) + 0.02 * (uniform() - 0.5),
    );
    const found = decoupling(steps, risingReward(3), share);
    assert.ok(found !== undefined);
    assert.ok(Math.abs(found.from - 12) <= 2, `from ${found.from}`);
    assert.equal(found.to, 40);
  });

  it('decoupling(control: reward and share both rising) is undefined', () => {
    assert.equal(
      decoupling(
        steps,
        risingReward(5),
        steps.map((s) => 0.2 + 0.01 * s),
      ),
      undefined,
    );
  });

  it('decoupling(share falling but reward flat) is undefined: no rising reward, no decoupling', () => {
    assert.equal(
      decoupling(
        steps,
        steps.map(() => 0.6),
        plateauThenFall,
      ),
      undefined,
    );
  });

  it('decoupling(reward rising, share constant at 0.05) is flagged by the final share < 0.1 over the whole run', () => {
    const found = decoupling(
      steps,
      risingReward(9),
      steps.map(() => 0.05),
    );
    assert.ok(found !== undefined);
    assert.ok(Number.isNaN(found.shareRho));
    assert.equal(found.lastShare, 0.05);
    assert.deepEqual([found.from, found.to], [1, 40]);
    assert.equal(
      decoupling(
        steps,
        risingReward(9),
        steps.map(() => 0.05),
        { minShare: 0.04 },
      ),
      undefined,
    );
  });

  it('decoupling(noise: 100 seeded series of 40 independent uniform rewards and shares) flags at most 10%', () => {
    const uniform = mulberry32(2024);
    let flagged = 0;
    for (let series = 0; series < 100; series++) {
      const reward = steps.map(() => uniform());
      const share = steps.map(() => uniform());
      if (decoupling(steps, reward, share) !== undefined) flagged++;
    }
    assert.ok(flagged <= 10, `${flagged} of 100 flagged`);
  });

  it('decoupling(checkpoints out of order) gives the same result as sorted checkpoints', () => {
    const reward = risingReward(7);
    const order = steps.map((_, k) => k).reverse();
    const shuffled = decoupling(
      order.map((k) => steps[k] ?? NaN),
      order.map((k) => reward[k] ?? NaN),
      order.map((k) => plateauThenFall[k] ?? NaN),
    );
    assert.deepEqual(shuffled, decoupling(steps, reward, plateauThenFall));
  });

  it('decoupling(fewer than 4 finite checkpoints) is undefined; NaN checkpoints are skipped', () => {
    assert.equal(decoupling([1, 2, 3], [0.1, 0.5, 0.9], [0.9, 0.5, 0.01]), undefined);
    assert.equal(decoupling([1, 2, 3, 4, 5], [0.1, 0.5, 0.9, NaN, NaN], [0.9, 0.5, 0.01, 0, 0]), undefined);
  });

  it('decoupling(misaligned arrays or alpha outside (0, 1)) throws RangeError', () => {
    assert.throws(() => decoupling([1, 2], [1], [1, 2]), RangeError);
    assert.throws(() => decoupling(steps, steps, steps, { alpha: 0 }), RangeError);
  });
});
