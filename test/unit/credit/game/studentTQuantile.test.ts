import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalQuantile } from '../../../../src/credit/stats/normalQuantile';
import { studentTQuantile } from '../../../../src/credit/game/studentTQuantile';

/** Reference quantiles computed with mpmath at 30 digits (incomplete beta root). */
const tQuantiles: [number, number, number][] = [
  [0.975, 1, 12.706204736174692],
  [0.975, 2, 4.302652729749462],
  [0.975, 3, 3.182446305283708],
  [0.975, 5, 2.5705818356363146],
  [0.975, 9, 2.262157162798205],
  [0.975, 30, 2.0422724563012378],
  [0.975, 99, 1.9842169515864172],
  [0.95, 1e5, 1.6448688647849694],
  [0.9, 1e6, 1.2815524121299386],
  [0.995, 4, 4.604094871349992],
  [0.6, 7, 0.2631668613520228],
  [0.025, 10, -2.228138851986275],
  [0.999, 2.5, 13.82219311086596],
  [0.975, 0.5, 164.55767348048823],
];

describe('studentTQuantile', () => {
  for (const [p, df, expected] of tQuantiles) {
    it(`studentTQuantile(${p}, ${df}) = ${expected} to 1e-9 relative`, () => {
      const actual = studentTQuantile(p, df);
      assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.abs(expected), `got ${actual}`);
    });
  }

  it('studentTQuantile(p, df) is antisymmetric, 0 at p = ½, ±Infinity at 0 and 1, and tends to the normal quantile', () => {
    for (const df of [1, 3, 12, 150]) {
      for (const p of [0.01, 0.2, 0.45])
        assert.ok(Math.abs(studentTQuantile(p, df) + studentTQuantile(1 - p, df)) < 1e-9);
    }
    assert.equal(studentTQuantile(0.5, 4), 0);
    assert.equal(studentTQuantile(0, 4), -Infinity);
    assert.equal(studentTQuantile(1, 4), Infinity);
    assert.ok(Math.abs(studentTQuantile(0.975, Infinity) - 1.9599639845400543) < 1e-12);
  });

  it('studentTQuantile(p, df) returns NaN for NaN, p outside [0, 1], or df ≤ 0', () => {
    for (const [p, df] of [
      [NaN, 3],
      [0.5, NaN],
      [-0.1, 3],
      [1.1, 3],
      [0.9, 0],
      [0.9, -2],
    ] as const) {
      assert.ok(Number.isNaN(studentTQuantile(p, df)), `p = ${p}, df = ${df}`);
    }
  });
});

describe('normalQuantile', () => {
  it('normalQuantile(p) matches reference quantiles (at the binary value of p) to 1e-15 relative', () => {
    const cases: [number, number][] = [
      [0.975, 1.9599639845400543],
      [0.95, 1.6448536269514726],
      [1e-10, -6.361340902404057],
      [0.3, -0.5244005127080408],
      [0.999999, 4.753424308817088],
    ];
    for (const [p, z] of cases) assert.ok(Math.abs(normalQuantile(p) - z) <= 1e-15 * Math.abs(z), `p = ${p}`);
  });

  it('normalQuantile(p) gives ∓Infinity at 0 and 1 and NaN outside [0, 1]', () => {
    assert.equal(normalQuantile(0), -Infinity);
    assert.equal(normalQuantile(1), Infinity);
    assert.ok(Number.isNaN(normalQuantile(-1)) && Number.isNaN(normalQuantile(NaN)));
  });
});
