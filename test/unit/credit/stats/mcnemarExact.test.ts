import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discordantCounts, mcnemarExact } from '../../../../src/credit/stats/mcnemarExact';
import { assertClose } from './assertClose';

describe('mcnemarExact', () => {
  const table = [
    { b: 3, c: 1, p: 0.625 }, // E13
    { b: 1, c: 3, p: 0.625 },
    { b: 0, c: 0, p: 1 },
    { b: 2, c: 2, p: 1 },
    { b: 6, c: 0, p: 2 / 64 },
    { b: 10, c: 2, p: (2 * (1 + 12 + 66)) / 4096 },
  ];
  for (const { b, c, p } of table) {
    it(`mcnemarExact(${b}, ${c}) is ${p}`, () => assertClose(mcnemarExact(b, c), p, 1e-12));
  }

  it('mcnemarExact(b, c) stays finite and tiny for large unbalanced counts', () => {
    assertClose(Math.log(mcnemarExact(1000, 0)), -999 * Math.LN2, 1e-9);
    assertClose(Math.log(mcnemarExact(1000, 1)), Math.log(1001) - 1000 * Math.LN2 + Math.log1p(1 / 1001), 1e-9);
    assertClose(mcnemarExact(5000, 5000), 1, 1e-12);
    assert.ok(mcnemarExact(1100, 900) > 0 && mcnemarExact(1100, 900) < 1e-5);
  });

  it('mcnemarExact(b, c) throws for counts that are not non-negative integers', () => {
    assert.throws(() => mcnemarExact(-1, 2), RangeError);
    assert.throws(() => mcnemarExact(1.5, 2), RangeError);
  });
});

describe('discordantCounts', () => {
  it('discordantCounts(R, R_−i) counts b = only-with-agent successes and c = only-without (E13)', () => {
    const factual = [1, 1, 1, 0, ...Array<number>(96).fill(1)];
    const counterfactual = [0, 0, 0, 1, ...Array<number>(96).fill(1)];
    assert.deepEqual(discordantCounts(factual, counterfactual), { b: 3, c: 1, n: 100 });
  });

  it('discordantCounts(R, R_−i) skips non-binary pairs and throws on misaligned arrays', () => {
    assert.deepEqual(discordantCounts([1, 0.5, NaN, 0], [0, 0, 1, 0]), { b: 1, c: 0, n: 2 });
    assert.throws(() => discordantCounts([1], [1, 0]), RangeError);
  });
});
