import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalCdf, normalQuantile } from '../../../../src/credit/stats/normalQuantile';
import { assertClose } from './assertClose';

describe('normalQuantile', () => {
  it('normalQuantile(p) gives the E13 critical values z_0.95 = 1.644854 and z_0.975 = 1.959964', () => {
    assertClose(normalQuantile(0.95), 1.644854, 1e-6);
    assertClose(normalQuantile(0.975), 1.959964, 1e-6);
  });

  const reference = [
    [0.5, 0],
    [0.975, 1.959963984540054],
    [0.95, 1.6448536269514722],
    [0.9, 1.2815515655446004],
    [0.999, 3.090232306167813],
    [0.3, -0.5244005127080407],
    [1e-10, -6.361340902404056],
  ] as const;
  for (const [p, z] of reference) {
    it(`normalQuantile(${p}) is ${z} to 1e-9`, () => assertClose(normalQuantile(p), z, 1e-9));
  }

  it('normalQuantile(p) inverts normalCdf across (0, 1), including the Acklam region boundaries', () => {
    for (const p of [1e-300, 1e-15, 0.001, 0.02425, 0.0243, 0.1, 0.5, 0.7, 0.97575, 0.999999]) {
      const x = normalQuantile(p);
      assertClose(normalCdf(x) / p, 1, 1e-9, `p = ${p}`);
    }
  });

  it('normalQuantile(1 − p) is −normalQuantile(p)', () => {
    // Dyadic p, so that 1 − p and 1 − (1 − p) are exact.
    for (const p of [0.0078125, 0.125, 0.25]) assert.equal(normalQuantile(1 - p), -normalQuantile(p));
  });

  it('normalQuantile(p) is ±Infinity at 0 and 1 and NaN outside [0, 1]', () => {
    assert.equal(normalQuantile(0), -Infinity);
    assert.equal(normalQuantile(1), Infinity);
    assert.ok(Number.isNaN(normalQuantile(1.5)));
    assert.ok(Number.isNaN(normalQuantile(-0.1)));
    assert.ok(Number.isNaN(normalQuantile(NaN)));
  });
});

describe('normalCdf', () => {
  const reference = [
    [0, 0.5],
    [-1, 0.15865525393145707],
    [1.96, 0.9750021048517795],
    [-3, 0.0013498980316300946],
    [-5, 2.866515718791939e-7],
    [-10, 7.619853024160527e-24],
  ] as const;
  for (const [x, p] of reference) {
    it(`normalCdf(${x}) is ${p} to 1e-12 relative`, () => assertClose(normalCdf(x) / p, 1, 1e-12));
  }

  it('normalCdf(x) is continuous where the series hands over to the continued fraction', () => {
    // The step is 2e-13, so the CDF may move by φ(3)·2e-13 ≈ 9e-16.
    assertClose(normalCdf(-3 + 1e-13), normalCdf(-3 - 1e-13), 2e-15);
  });

  it('normalCdf(±Infinity) is 1 / 0 and normalCdf(NaN) is NaN', () => {
    assert.equal(normalCdf(Infinity), 1);
    assert.equal(normalCdf(-Infinity), 0);
    assert.ok(Number.isNaN(normalCdf(NaN)));
  });
});
