import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalitionSizes, coalitionTable, popcount } from '../../../../src/credit/game/coalitionGame';
import { shapleyWeights } from '../../../../src/credit/game/shapleyWeights';
import { assertClose, sum } from './games';

describe('coalitionTable', () => {
  it('coalitionTable(n, value) calls value once per mask, in mask order, and stores the results', () => {
    const calls: number[] = [];
    const table = coalitionTable(3, (mask) => (calls.push(mask), mask / 10));
    assert.deepEqual(calls, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(table.n, 3);
    assertClose(table.values, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], 0);
  });

  it('coalitionTable(0, value) holds only v(∅), and NaN values are kept', () => {
    assertClose(coalitionTable(0, () => 2).values, [2], 0);
    assertClose(coalitionTable(1, () => NaN).values, [NaN, NaN], 0);
  });

  it('coalitionTable(n, value) throws a RangeError for n outside 0..20 or not an integer', () => {
    for (const n of [-1, 21, 2.5, NaN]) assert.throws(() => coalitionTable(n, () => 0), RangeError, `n = ${n}`);
  });
});

describe('popcount', () => {
  it('popcount(mask) counts the agents in a coalition', () => {
    const cases: [number, number][] = [
      [0, 0],
      [1, 1],
      [0b1011, 3],
      [0xfffff, 20],
      [2 ** 30 - 1, 30],
      [-1, 32],
      [0x80000000, 1],
    ];
    for (const [mask, count] of cases) assert.equal(popcount(mask), count, `mask ${mask}`);
  });
});

describe('coalitionSizes', () => {
  it('coalitionSizes(n) lists popcount(mask) for every mask below 2^n', () => {
    assert.deepEqual(Array.from(coalitionSizes(3)), [0, 1, 1, 2, 1, 2, 2, 3]);
    assert.deepEqual(Array.from(coalitionSizes(0)), [0]);
    const sizes = coalitionSizes(16);
    for (let mask = 0; mask < sizes.length; mask += 97) assert.equal(sizes[mask], popcount(mask));
    assert.throws(() => coalitionSizes(21), RangeError);
  });
});

describe('shapleyWeights', () => {
  it('shapleyWeights(n) gives s!(n−s−1)!/n! and sums to 1/n per size class', () => {
    assertClose(shapleyWeights(3), [1 / 3, 1 / 6, 1 / 3], 1e-15);
    assertClose(shapleyWeights(1), [1], 0);
    assert.equal(shapleyWeights(0).length, 0);
    for (let n = 1; n <= 20; n++) {
      let binomial = 1;
      let total = 0;
      shapleyWeights(n).forEach((w, s) => {
        total += w * binomial;
        binomial = (binomial * (n - 1 - s)) / (s + 1);
      });
      assert.ok(Math.abs(total - 1) < 1e-12, `n = ${n}`);
    }
    assert.ok(Math.abs(sum(shapleyWeights(4)) - (1 / 4 + 1 / 12 + 1 / 12 + 1 / 4)) < 1e-15);
  });
});
