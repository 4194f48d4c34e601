import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageLeaveOneOut } from '../../../../src/credit/game/messageLeaveOneOut';
import { messageShapley } from '../../../../src/credit/game/messageShapley';
import { owenValues } from '../../../../src/credit/game/owenValues';
import { assertClose, randomGames, sum, valueOf } from './games';
import { e10Unions, e10Value, e10Variant, e10VariantUnions } from './oracles';

describe('messageShapley', () => {
  it('messageShapley(4, v) gives (2/15, 2/15, 11/15, 0) for E10, so agent A gets 4/15 instead of 2/5', () => {
    const shapley = messageShapley(4, e10Value);
    assertClose(shapley, [2 / 15, 2 / 15, 11 / 15, 0], 1e-9);
    assert.ok(Math.abs(shapley[0]! + shapley[1]! - 4 / 15) < 1e-9);
    const owen = owenValues(e10Unions, 4, e10Value);
    assert.ok(Math.abs(owen[0]! + owen[1]! - (shapley[0]! + shapley[1]!)) > 0.1, 'E10 tells Owen from message Shapley');
  });

  it('messageShapley(3, v) equals Owen on the non-discriminating E10 variant: (1/4, 1/5, 11/20)', () => {
    const shapley = messageShapley(3, valueOf(e10Variant));
    assertClose(shapley, [1 / 4, 1 / 5, 11 / 20], 1e-9);
    assertClose(shapley, owenValues(e10VariantUnions, 3, valueOf(e10Variant)), 1e-12);
  });

  it('messageShapley(T, v) is efficient over messages and returns an empty array for T = 0', () => {
    for (const game of randomGames(50, 61)) {
      assert.ok(
        Math.abs(sum(messageShapley(game.n, valueOf(game))) - (game.values[(1 << game.n) - 1]! - game.values[0]!)) <
          1e-9,
      );
    }
    assert.equal(messageShapley(0, () => 1).length, 0);
    assert.throws(() => messageShapley(21, () => 1), RangeError);
  });
});

describe('messageLeaveOneOut', () => {
  it('messageLeaveOneOut(4, v) gives (0, 0, 1, 0) for E10: duplicated plan messages both look removable', () => {
    assertClose(messageLeaveOneOut(4, e10Value), [0, 0, 1, 0], 1e-12);
  });

  it('messageLeaveOneOut(T, v) calls v T + 1 times and works beyond the table limit', () => {
    let calls = 0;
    const loo = messageLeaveOneOut(30, (mask) => (calls++, (mask & 1) === 1 ? 1 : 0));
    assert.equal(calls, 31);
    assert.equal(loo[0], 1);
    assert.equal(sum(loo), 1);
  });

  it('messageLeaveOneOut(0, v) returns an empty array; NaN values give NaN entries; T > 30 throws', () => {
    assert.equal(messageLeaveOneOut(0, () => 1).length, 0);
    assertClose(
      messageLeaveOneOut(2, (mask) => (mask === 2 ? NaN : 1)),
      [NaN, 0],
      0,
    );
    assert.throws(() => messageLeaveOneOut(31, () => 1), RangeError);
  });
});
