import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shapleyMonteCarlo } from '../../../../src/credit/game/shapleyMonteCarlo';
import { rotations } from '../../../../src/credit/game/permutationDesign';
import { seeded, sum } from './games';

/** Unanimity game on N (v(N) = worth, else 0): Shapley worth / n each. */
const unanimity = (n: number, worth = 0.1) => {
  const full = (1n << BigInt(n)) - 1n;
  return (mask: bigint): number => (mask === full ? worth : 0);
};

/** v(S) = Σ_{i∈S} w_i + a bonus when agents 0 and 1 are both in, agent `nullAgent` ignored. */
const sparseGame =
  (n: number, nullAgent: number) =>
  (mask: bigint): number => {
    let total = 0;
    for (let i = 0; i < n; i++)
      if (i !== nullAgent && ((mask >> BigInt(i)) & 1n) === 1n) total += ((i * 7) % 5) / (5 * n);
    return total + ((mask & 3n) === 3n ? 0.3 : 0);
  };

describe('shapleyMonteCarlo at the edges (issue 11)', () => {
  it('rotation blocks put every agent at every position once: the n shifts of an order', () => {
    const shifts = rotations(Int32Array.from([2, 0, 3, 1]));
    assert.deepEqual(
      shifts.map((s) => Array.from(s)),
      [
        [2, 0, 3, 1],
        [0, 3, 1, 2],
        [3, 1, 2, 0],
        [1, 2, 0, 3],
      ],
    );
    for (let agent = 0; agent < 4; agent++) assert.deepEqual(shifts.map((s) => s.indexOf(agent)).sort(), [0, 1, 2, 3]);
  });

  it('a 10-agent unanimity game gives intervals of positive width that cover 0.01, for both designs', () => {
    for (const rotation of [true, false]) {
      for (let g = 0; g < 50; g++) {
        const result = shapleyMonteCarlo(10, unanimity(10), { rotation, random: seeded(g) });
        assert.ok(Math.abs(sum(result.values) - 0.1) < 1e-12);
        for (let i = 0; i < 10; i++) {
          assert.ok(
            result.ciHigh[i]! > result.ciLow[i]!,
            `rotation ${rotation}, seed ${g}: zero-width interval for tied samples`,
          );
          if (rotation) assert.ok(result.ciLow[i]! <= 0.01 && 0.01 <= result.ciHigh[i]!, `seed ${g}, agent ${i}`);
        }
      }
    }
  });

  it('tied samples are never reported as exact: a null player gets exactly 0 with SE > 0', () => {
    const result = shapleyMonteCarlo(12, sparseGame(12, 5), { random: seeded(3) });
    assert.equal(result.values[5], 0);
    assert.ok(result.stderr[5]! > 0 && result.ciLow[5]! < 0 && result.ciHigh[5]! > 0);
  });

  it('works at n = 40 and n = 64 with bigint masks: exactly efficient, null player exactly 0', () => {
    for (const n of [40, 64]) {
      const value = sparseGame(n, n - 1);
      const worth = value((1n << BigInt(n)) - 1n) - value(0n);
      const result = shapleyMonteCarlo(n, value, { random: seeded(n) });
      assert.ok(Math.abs(sum(result.values) - worth) < 1e-12, `n = ${n}`);
      assert.equal(result.values[n - 1], 0);
      assert.equal(result.permutations, Math.floor(200 / n) * n, 'whole rotation blocks');
      assert.ok(result.stderr.every((se) => se > 0 && Number.isFinite(se)));
      const mean = sum(result.values) / n;
      assert.ok(Number.isFinite(mean));
    }
  });

  it('covers the true unanimity value at n = 40 and n = 64 (Shapley v(N)/n each)', () => {
    for (const n of [40, 64]) {
      const result = shapleyMonteCarlo(n, unanimity(n), { random: seeded(n + 1) });
      for (let i = 0; i < n; i++)
        assert.ok(result.ciLow[i]! < 0.1 / n && 0.1 / n < result.ciHigh[i]!, `n = ${n}, agent ${i}`);
    }
  });

  it('falls back to independent permutations when fewer than two rotation blocks fit', () => {
    const result = shapleyMonteCarlo(12, sparseGame(12, 0), {
      maxPermutations: 20,
      targetStderr: 0,
      random: seeded(1),
    });
    assert.equal(result.permutations, 20);
  });
});
