import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ccpoBonus } from '../../../../src/credit/signals/ccpoBonus';
import { assertClose } from '../stats/assertClose';

// credit-methods.md §8 E7b: ±1 rewards, λ = 0.2.
const joint = [1, 1, -1, 1];
const solo = [1, -1, -1, -1];

describe('ccpoBonus', () => {
  it('ccpoBonus(joint, solo) in event mode gives bonus [1,1,0,1] and r_thinker [1.2,1.2,−1,1.2] (E7b)', () => {
    const r = ccpoBonus(joint, solo);
    assert.equal(r.soloBaseline, -0.5);
    assertClose(r.bonus, [1, 1, 0, 1], 0);
    assertClose(r.thinker, [1.2, 1.2, -1.0, 1.2], 1e-12);
    assertClose(r.solver, joint, 0);
  });

  it('ccpoBonus(joint, solo, {mode: "delta"}) gives bonus [0.75,0.75,−0.25,0.75] and r_thinker [1.15,1.15,−1.05,1.15] (E7b)', () => {
    const r = ccpoBonus(joint, solo, { mode: 'delta', lambda: 0.2 });
    assertClose(r.bonus, [0.75, 0.75, -0.25, 0.75], 1e-12);
    assertClose(r.thinker, [1.15, 1.15, -1.05, 1.15], 1e-12);
  });

  it('ccpoBonus credits rollout 1 where per-sample LOO in ±1 units gives [0, 2, 0, 2] (E7b)', () => {
    const looPerSample = joint.map((r, g) => r - solo[g]!);
    assert.deepEqual(looPerSample, [0, 2, 0, 2]);
    assert.equal(ccpoBonus(joint, solo).bonus[0], 1);
  });

  it('ccpoBonus(joint, solo) marks hurt rollouts −1 when the solver alone usually succeeds', () => {
    const r = ccpoBonus([-1, 1, -1], [1, 1, -1], { lambda: 0.5 });
    assertClose(r.bonus, [-1, 0, -1], 0);
    assertClose(r.thinker, [-1.5, 1, -1.5], 1e-12);
  });

  it('ccpoBonus(joint, solo) gives no event bonus when the solo baseline is exactly 0', () => {
    assertClose(ccpoBonus([1, -1], [1, -1]).bonus, [0, 0], 0);
  });

  it('ccpoBonus([], []) has a NaN baseline and empty rewards; misaligned inputs throw', () => {
    const r = ccpoBonus([], []);
    assert.ok(Number.isNaN(r.soloBaseline));
    assert.equal(r.thinker.length, 0);
    assert.throws(() => ccpoBonus([1], [1, 1]), RangeError);
  });
});
