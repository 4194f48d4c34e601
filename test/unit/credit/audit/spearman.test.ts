import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spearman } from '../../../../src/credit/audit/spearman';
import { assertClose } from '../stats/assertClose';

const oneToTen = Array.from({ length: 10 }, (_, k) => k + 1);

describe('spearman', () => {
  it('spearman(1…10, 1…10) is rho 1 with p < 0.001 (perfect monotone; |rho| = 1 gives p = 0)', () => {
    const { rho, p, n } = spearman(
      oneToTen,
      oneToTen.map((x) => x * x),
    );
    assert.equal(rho, 1);
    assert.ok(p < 0.001);
    assert.equal(n, 10);
  });

  it('spearman(1…10, 10…1) is rho −1', () => assert.equal(spearman(oneToTen, [...oneToTen].reverse()).rho, -1));

  // p values: the t approximation with n − 2 df, as scipy.stats.spearmanr computes it.
  const table: { x: number[]; y: number[]; rho: number; p: number; why: string }[] = [
    // Σd² = 4: 1 − 6·4/(5·24) = 0.8; t = 0.8·√(3/0.36) = 2.309401, 3 df.
    { x: [1, 2, 3, 4, 5], y: [2, 1, 4, 3, 5], rho: 0.8, p: 0.104088038661828, why: 'no ties, n = 5' },
    // Σd² = 10: 1 − 60/990 = 31/33.
    {
      x: oneToTen,
      y: [2, 1, 4, 3, 6, 5, 8, 7, 10, 9],
      rho: 31 / 33,
      p: 5.48405299851e-5,
      why: 'swapped pairs, n = 10',
    },
    // Ranks x (1, 2.5, 2.5, 4, 5, 6), y (1, 4, 2.5, 2.5, 6, 5): Σdxdy = 13.75, Σdx² = Σdy² = 17 → 55/68.
    {
      x: [1, 2, 2, 3, 4, 5],
      y: [1, 3, 2, 2, 5, 4],
      rho: 55 / 68,
      p: 0.051329063199674,
      why: 'ties in x and y, average ranks',
    },
    // Σd² = 66: 1 − 396/990 = 0.6; t = 0.6·√(8/0.64) = 2.121320, 8 df.
    { x: oneToTen, y: [1, 2, 3, 4, 9, 10, 7, 8, 6, 5], rho: 0.6, p: 0.066688, why: 'rho 0.6, n = 10' },
  ];
  for (const row of table) {
    it(`spearman(x, y) = ${row.rho.toFixed(6)}, p ${row.p.toPrecision(6)} (${row.why})`, () => {
      const result = spearman(row.x, row.y);
      assertClose(result.rho, row.rho, 1e-12);
      assertClose(result.p, row.p, 1e-6 * Math.max(row.p, 1e-3));
      assert.equal(result.n, row.x.length);
    });
  }

  it('spearman(x, y) with n < 4 has p = 1', () => {
    assert.deepEqual(spearman([1, 2, 3], [1, 2, 3]), { rho: 1, p: 1, n: 3 });
  });

  it('spearman(constant, y) and spearman(x, constant) have rho NaN and p = 1', () => {
    const constant = spearman([2, 2, 2, 2, 2], [1, 2, 3, 4, 5]);
    assert.ok(Number.isNaN(constant.rho));
    assert.equal(constant.p, 1);
    assert.ok(Number.isNaN(spearman([1, 2, 3, 4, 5], [0, 0, 0, 0, 0]).rho));
  });

  it('spearman([], []) has rho NaN, p = 1, n = 0', () => {
    const empty = spearman([], []);
    assert.ok(Number.isNaN(empty.rho));
    assert.equal(empty.p, 1);
    assert.equal(empty.n, 0);
  });

  it('spearman(x, y) skips pairs with a NaN or infinite value', () => {
    const result = spearman([1, 2, NaN, 3, 4, 5, 6], [2, 1, 9, 4, 3, Infinity, 5]);
    assert.equal(result.n, 5);
    assertClose(result.rho, spearman([1, 2, 3, 4, 6], [2, 1, 4, 3, 5]).rho, 1e-15);
  });

  // Heavy ties, as credit values from 0/1 rewards have (−1, 0, 1 and their group advantages), and
  // −0 beside 0 (tied, as === has them): rho against Σ of centred ranks found by counting, per value,
  // how many are smaller and how many equal.
  it('spearman(x, y) with heavy ties and −0 equals the counted average ranks', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = (values: number[]): number[] =>
      Array.from({ length: 200 }, () => values[Math.floor(next() * values.length)] ?? 0);
    const x = pick([-1, -0, 0, 1, 0.5]);
    const y = pick([-1, 0, 1, 2, 2, 3]);
    const countedRanks = (v: number[]): number[] =>
      v.map((a) => v.filter((b) => b < a).length + (v.filter((b) => b === a).length + 1) / 2);
    const rx = countedRanks(x);
    const ry = countedRanks(y);
    const mean = (v: number[]): number => v.reduce((s, a) => s + a, 0) / v.length;
    const [mx, my] = [mean(rx), mean(ry)];
    const sxy = rx.reduce((s, a, k) => s + (a - mx) * ((ry[k] ?? 0) - my), 0);
    const sxx = rx.reduce((s, a) => s + (a - mx) ** 2, 0);
    const syy = ry.reduce((s, a) => s + (a - my) ** 2, 0);
    assertClose(spearman(x, y).rho, sxy / Math.sqrt(sxx * syy), 1e-12);
    assert.ok(x.some((a) => Object.is(a, -0)) && x.includes(0));
  });

  it('spearman(x, y) throws RangeError for misaligned inputs', () =>
    assert.throws(() => spearman([1, 2], [1]), RangeError));
});
