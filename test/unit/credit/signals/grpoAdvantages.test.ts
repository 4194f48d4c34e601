import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grpoAdvantages } from '../../../../src/credit/signals/grpoAdvantages';
import { assertClose } from '../stats/assertClose';

// credit-methods.md §8 E7: one prompt, G = 4, eps = 0.
const shared = [1, 1, 0, 1];
const withoutReasoner = [1, 0, 0, 0];
const withoutSolver = [0, 0, 0, 0];
const dReasoner = shared.map((r, g) => r - withoutReasoner[g]!);
const dSolver = shared.map((r, g) => r - withoutSolver[g]!);

const rows = [
  { signal: 'shared R', values: shared, ddof0: [0.57735, 0.57735, -1.732051, 0.57735], ddof1: [0.5, 0.5, -1.5, 0.5] },
  { signal: 'D_Rsn', values: dReasoner, ddof0: [-1, 1, -1, 1], ddof1: [-0.866025, 0.866025, -0.866025, 0.866025] },
  { signal: 'D_Sol', values: dSolver, ddof0: [0.57735, 0.57735, -1.732051, 0.57735], ddof1: [0.5, 0.5, -1.5, 0.5] },
];

describe('grpoAdvantages', () => {
  it('grpoAdvantages derives the E7 difference rewards D_Rsn = [0,1,0,1] and D_Sol = R', () => {
    assert.deepEqual(dReasoner, [0, 1, 0, 1]);
    assert.deepEqual(dSolver, shared);
  });

  for (const row of rows) {
    it(`grpoAdvantages(values, {ddof: 0, eps: 0}) reproduces the E7 row ${row.signal}`, () => {
      assertClose(grpoAdvantages(row.values, { ddof: 0, eps: 0 }), row.ddof0);
    });
    it(`grpoAdvantages(values, {ddof: 1, eps: 0}) reproduces the E7 row ${row.signal}`, () => {
      assertClose(grpoAdvantages(row.values, { ddof: 1, eps: 0 }), row.ddof1);
    });
  }

  it('grpoAdvantages(values, {centerOnly: true}) only subtracts the mean (E7: D_Rsn → [−0.5, 0.5, −0.5, 0.5])', () => {
    assertClose(grpoAdvantages(dReasoner, { centerOnly: true }), [-0.5, 0.5, -0.5, 0.5], 1e-15);
  });

  it('grpoAdvantages(values) uses ddof 0 and eps 1e-6 by default', () => {
    assertClose(
      grpoAdvantages(dReasoner),
      [-0.5, 0.5, -0.5, 0.5].map((d) => d / (0.5 + 1e-6)),
      1e-15,
    );
  });

  it('grpoAdvantages(values) gives zeros for a group of equal rewards', () => {
    assert.deepEqual(grpoAdvantages([0.1, 0.1, 0.1]), new Float64Array(3));
    assert.deepEqual(grpoAdvantages([1, 1, 1, 1], { eps: 1e-6, ddof: 1 }), new Float64Array(4));
  });

  it('grpoAdvantages(values, {eps: 0}) gives zeros, not NaN, for a group of equal rewards', () => {
    assert.deepEqual(grpoAdvantages([0, 0, 0, 0], { eps: 0 }), new Float64Array(4));
    assert.deepEqual(grpoAdvantages([7], { eps: 0, ddof: 1 }), new Float64Array(1));
  });

  it('grpoAdvantages(values) skips NaN rewards in the statistics and gives them NaN', () => {
    assertClose(grpoAdvantages([0, NaN, 1, 0, 1], { eps: 0 }), [-1, NaN, 1, -1, 1], 1e-15);
    assertClose(grpoAdvantages([NaN, 2, 2]), [NaN, 0, 0], 0);
  });

  it('grpoAdvantages([]) is empty', () => {
    assert.equal(grpoAdvantages([]).length, 0);
  });

  it('grpoAdvantages(values) is invariant to shifting the rewards and sums to 0', () => {
    const a = grpoAdvantages([0.2, 0.9, 0.4, 0.7], { eps: 0 });
    assertClose(grpoAdvantages([10.2, 10.9, 10.4, 10.7], { eps: 0 }), Array.from(a), 1e-12);
    assertClose(
      a.reduce((s, x) => s + x, 0),
      0,
      1e-12,
    );
  });

  it('grpoAdvantages(values, {epsPlacement: "inside"}) divides by sqrt(var + eps) (C3 MAGRPO)', () => {
    assertClose(
      grpoAdvantages(dReasoner, { ddof: 0, eps: 0.0625, epsPlacement: 'inside' }),
      [-0.5, 0.5, -0.5, 0.5].map((d) => d / Math.sqrt(0.3125)),
      1e-15,
    );
  });

  it('grpoAdvantages(values, {singleton: "unit"}) gives a group of one mean 0 and std 1 (verl)', () => {
    assertClose(grpoAdvantages([0.8], { ddof: 1, eps: 1e-6, singleton: 'unit' }), [0.8 / (1 + 1e-6)], 1e-15);
    assertClose(grpoAdvantages([0.8, NaN], { centerOnly: true, singleton: 'unit' }), [0.8, NaN], 1e-15);
    assert.deepEqual(grpoAdvantages([0.8], { ddof: 1, singleton: 'zero' }), new Float64Array(1));
  });
});
