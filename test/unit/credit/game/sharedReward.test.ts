import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedReward } from '../../../../src/credit/game/sharedReward';
import { assertClose } from './games';
import { agentOracles, e1 } from './oracles';

describe('sharedReward', () => {
  it('sharedReward(R, n) gives every E1 agent the team reward 1 (credit-methods.md §8 E1)', () => {
    assertClose(sharedReward(e1.game.values[7]!, 3), [1, 1, 1], 0);
  });

  it('sharedReward(R, n) credits the idle E2 partner like the solver, unlike LOO and Shapley', () => {
    const idle = agentOracles.find((o) => o.name === 'E2 idle partner (two agents)')!;
    assertClose(sharedReward(idle.game.values[3]!, 2), [1, 1], 0);
    assert.equal(idle.shapley[1], 0);
    assert.equal(idle.loo[1], 0);
  });

  it('sharedReward(R, n, {split: true}) divides R equally, so it sums to R', () => {
    assertClose(sharedReward(1, 3, { split: true }), [1 / 3, 1 / 3, 1 / 3], 1e-15);
    assertClose(sharedReward(0.6, 4, { split: false }), [0.6, 0.6, 0.6, 0.6], 0);
  });

  it('sharedReward(R, n) returns an empty array for n = 0, NaN for a NaN reward, and throws on a bad n', () => {
    assert.equal(sharedReward(1, 0).length, 0);
    assert.equal(sharedReward(1, 0, { split: true }).length, 0);
    assertClose(sharedReward(NaN, 2), [NaN, NaN], 0);
    assert.throws(() => sharedReward(1, -1), RangeError);
    assert.throws(() => sharedReward(1, 1.5), RangeError);
  });
});
