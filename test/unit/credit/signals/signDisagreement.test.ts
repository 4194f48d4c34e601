import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { advantagesFor } from '../../../../src/credit/signals/advantageConventions';
import { grpoAdvantages } from '../../../../src/credit/signals/grpoAdvantages';
import { addSignCounts, signDisagreement, wrongWayShare } from '../../../../src/credit/signals/signDisagreement';
import { assertClose } from '../stats/assertClose';

// credit-methods.md §8 E16: E7's group (R = [1, 1, 0, 1], D_Rsn = [0, 1, 0, 1], D_Sol = R) and a
// second group of the same agents whose team always succeeds (R = [1, 1, 1, 1], D_Rsn = [1, 0, 1, 0]).
const sample = { ddof: 1, eps: 0 } as const;
const e7Shared = grpoAdvantages([1, 1, 0, 1], sample);
const e7Reasoner = grpoAdvantages([0, 1, 0, 1], sample);
const e7Solver = grpoAdvantages([1, 1, 0, 1], sample);
const allWinShared = grpoAdvantages([1, 1, 1, 1], sample);
const allWinReasoner = grpoAdvantages([1, 0, 1, 0], sample);

describe('signDisagreement (credit-methods.md §3.18, E16)', () => {
  it('E7 group: rollout 0 succeeds yet the Reasoner is pushed the wrong way; ρ = 1/√3, p = 0.42265', () => {
    const r = signDisagreement(e7Shared, e7Reasoner);
    assert.deepEqual({ n: r.n, opposite: r.opposite, zero: r.zero }, { n: 4, opposite: 1, zero: 0 });
    assertClose(r.rho, 1 / Math.sqrt(3));
    // t = ρ·√(2/(1 − ρ²)) = 1 on 2 degrees of freedom: P(T > 1) = 1/2 − 1/(2√3).
    assertClose(r.p, 2 * (0.5 - 1 / (2 * Math.sqrt(3))), 1e-5);
    assert.equal(wrongWayShare(r), 0.25);
  });

  it('E7 group: the Solver, whose difference reward is the team reward, never disagrees (ρ = 1)', () => {
    const r = signDisagreement(e7Shared, e7Solver);
    assert.deepEqual({ n: r.n, opposite: r.opposite, zero: r.zero }, { n: 4, opposite: 0, zero: 0 });
    assertClose(r.rho, 1);
  });

  it('a group whose shared reward is constant is "no push" (zero), never a flip', () => {
    assertClose(allWinShared, [0, 0, 0, 0]);
    const r = signDisagreement(allWinShared, allWinReasoner);
    assert.deepEqual({ n: r.n, opposite: r.opposite, zero: r.zero }, { n: 4, opposite: 0, zero: 4 });
    assert.ok(Number.isNaN(r.rho), 'a constant side has no rank correlation');
  });

  it('both groups of one step: n 8, opposite 1, zero 4, ρ = 12/√1120 over the pooled ranks', () => {
    const r = signDisagreement([...e7Shared, ...allWinShared], [...e7Reasoner, ...allWinReasoner]);
    assert.deepEqual({ n: r.n, opposite: r.opposite, zero: r.zero }, { n: 8, opposite: 1, zero: 4 });
    assertClose(r.rho, 12 / Math.sqrt(1120));
  });

  it('the verl convention (sample std, eps 1e-6) gives the same signs as eps 0', () => {
    const verl = signDisagreement(advantagesFor('verl', [1, 1, 0, 1]), advantagesFor('verl', [0, 1, 0, 1]));
    assert.deepEqual([verl.n, verl.opposite, verl.zero], [4, 1, 0]);
  });

  it('an agent whose own signal is 0 where the shared reward pushes: zero and sharedOnly, not opposite', () => {
    // E2's idle partner in a group of two rollouts: R = [1, 0], D_P = [0, 0].
    const r = signDisagreement(grpoAdvantages([1, 0], sample), grpoAdvantages([0, 0], sample));
    assert.deepEqual([r.n, r.opposite, r.zero, r.sharedOnly], [2, 0, 2, 2]);
  });

  it('skips pairs with a missing (NaN) advantage and counts only the others', () => {
    const r = signDisagreement([0.5, NaN, -1, 2], [-1, 1, Infinity, 3]);
    assert.deepEqual({ n: r.n, opposite: r.opposite, zero: r.zero }, { n: 2, opposite: 1, zero: 0 });
  });

  it('no samples: n 0, share null (not 0), ρ NaN', () => {
    const r = signDisagreement([], []);
    assert.equal(r.n, 0);
    assert.equal(wrongWayShare(r), null);
    assert.ok(Number.isNaN(r.rho));
  });

  it('rejects unaligned arrays', () => {
    assert.throws(() => signDisagreement([1], []), RangeError);
  });

  it('addSignCounts sums the cells of a window', () => {
    assert.deepEqual(
      addSignCounts([
        { n: 4, opposite: 1, zero: 0, sharedOnly: 0 },
        { n: 4, opposite: 0, zero: 4, sharedOnly: 3 },
      ]),
      { n: 8, opposite: 1, zero: 4, sharedOnly: 3 },
    );
  });
});
