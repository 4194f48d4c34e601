import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalFromPairs, pairedDifference, pairedRatioDifference } from '../../../../src/credit/stats/pairedTest';

const close = (actual: number, expected: number, tolerance = 1e-9): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} ≠ ${expected}`);

describe('pairedDifference', () => {
  it('gives the paired t-test below 30 pairs (hand-computed: d = 1, 2, 0, 3, 1)', () => {
    // d̄ = 1.4, s_d = √(5.2/4) = 1.140175, se = 0.509902, t = 2.745626 on 4 df;
    // t_{0.975,4} = 2.776445; p = 2·(1 − F₄(t)) with F₄(t) = ½ + (3/8)·x·(1 − t²/(12(1 + t²/4))), x = t/√(1 + t²/4).
    const d = pairedDifference([1, 2, 3, 4, 5], [2, 4, 3, 7, 6]);
    assert.equal(d.n, 5);
    assert.equal(d.test, 't');
    close(d.meanA, 3);
    close(d.meanB, 4.4);
    close(d.difference, 1.4);
    close(d.interval[0], 1.4 - 2.7764451051977934 * 0.5099019513592785, 1e-8);
    close(d.interval[1], 1.4 + 2.7764451051977934 * 0.5099019513592785, 1e-8);
    close(d.p, 0.05160595781117472, 1e-9);
  });

  it('switches to the normal approximation at 30 pairs (z = d̄/se, p = 2Φ(−|z|))', () => {
    // 30 differences cycling −0.1, 0.1, 0.3, 0, 0.2: d̄ = 0.1, s_d = 0.143839, se = 0.026261, z = 3.807887.
    const cycle = [-0.1, 0.1, 0.3, 0, 0.2];
    const b = Array.from({ length: normalFromPairs }, (_, k) => cycle[k % 5] ?? 0);
    const d = pairedDifference(new Array<number>(normalFromPairs).fill(0), b);
    assert.equal(d.test, 'normal');
    close(d.difference, 0.1, 1e-12);
    close(d.interval[0], 0.04852882372530538, 1e-9);
    close(d.interval[1], 0.1514711762746947, 1e-9);
    close(d.p, 0.0001401595426295637, 1e-10);
    const t = pairedDifference(new Array<number>(29).fill(0), b.slice(0, 29));
    assert.equal(t.test, 't', '29 pairs stay on Student t');
  });

  it('skips a pair with a NaN or infinite side and reports the pairs it used', () => {
    const d = pairedDifference([1, NaN, 3, 2], [2, 5, Infinity, 2]);
    assert.equal(d.n, 2);
    close(d.meanA, 1.5);
    close(d.meanB, 2);
    close(d.difference, 0.5);
  });

  it('gives NaN interval and p for one pair, NaN everything for none, and a point interval without spread', () => {
    const one = pairedDifference([1], [3]);
    assert.equal(one.difference, 2);
    assert.ok(Number.isNaN(one.p) && Number.isNaN(one.interval[0]) && Number.isNaN(one.interval[1]));
    const none = pairedDifference([], []);
    assert.equal(none.n, 0);
    assert.ok([none.meanA, none.meanB, none.difference, none.p].every(Number.isNaN));
    const flat = pairedDifference([0, 1, 2], [1, 2, 3]);
    assert.deepEqual([flat.difference, flat.interval, flat.p], [1, [1, 1], 0]);
    const same = pairedDifference([0, 1, 2], [0, 1, 2]);
    assert.deepEqual([same.difference, same.interval, same.p], [0, [0, 0], 1]);
  });

  it('is antisymmetric: swapping the sides negates the difference and keeps p', () => {
    const a = [0.3, 0.1, 0.8, 0.5, 0.9, 0.2];
    const b = [0.4, 0.3, 0.6, 0.9, 1.0, 0.2];
    const forward = pairedDifference(a, b);
    const backward = pairedDifference(b, a);
    close(backward.difference, -forward.difference, 1e-15);
    close(backward.interval[0], -forward.interval[1], 1e-12);
    close(backward.p, forward.p, 1e-15);
  });
});

describe('pairedRatioDifference', () => {
  it('gives the share difference with a delta-method interval (hand-computed)', () => {
    // r_A = 2/5 = 0.4, r_B = 4/5 = 0.8, x̄ = 1.25; z_B − z_A = −0.32, 0.48, −0.64, 0.48 (mean 0),
    // s = √(0.9728/3) = 0.569444, se = 0.284722; t_{0.975,3} = 3.182446; p = 2·(1 − F₃(1.404879)),
    // F₃(t) = ½ + (x/(1 + x²) + atan x)/π with x = t/√3.
    const d = pairedRatioDifference({ y: [1, 0, 1, 0], x: [1, 1, 2, 1] }, { y: [1, 1, 1, 1], x: [1, 1, 2, 1] });
    assert.equal(d.n, 4);
    assert.equal(d.test, 't');
    close(d.meanA, 0.4);
    close(d.meanB, 0.8);
    close(d.difference, 0.4, 1e-12);
    close(d.interval[0], -0.5061127529173887, 1e-8);
    close(d.interval[1], 1.3061127529173886, 1e-8);
    close(d.p, 0.25469893496989426, 1e-9);
  });

  it('gives NaN shares and no test when a side has no positive total', () => {
    const d = pairedRatioDifference({ y: [0, 0], x: [0, 0] }, { y: [1, 0], x: [1, 1] });
    assert.ok(Number.isNaN(d.meanA));
    close(d.meanB, 0.5);
    assert.ok(Number.isNaN(d.p) && Number.isNaN(d.difference));
  });
});
