import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { permutationMarginals } from '../../../../src/credit/game/permutationMarginals';
import { allPermutations, assertClose, bigValueOf, orderOf, randomGames, sum } from './games';
import { e1 } from './oracles';

/** credit-methods.md §8 E1: per-permutation marginals (P, S, V). */
const e1Marginals: readonly [string, number[]][] = [
  ['PSV', [0, 3 / 5, 2 / 5]],
  ['PVS', [0, 1, 0]],
  ['SPV', [2 / 5, 1 / 5, 2 / 5]],
  ['SVP', [3 / 5, 1 / 5, 1 / 5]],
  ['VPS', [0, 1, 0]],
  ['VSP', [3 / 5, 2 / 5, 0]],
];

describe('permutationMarginals', () => {
  for (const [order, expected] of e1Marginals) {
    it(`permutationMarginals(${order}, v) matches E1 (credit-methods.md §8)`, () => {
      assertClose(permutationMarginals(orderOf('PSV', order), bigValueOf(e1.game)), expected, 1e-12, order);
    });
  }

  it("permutationMarginals(order, v) over all six E1 orders gives P's variance 17/225 and SE 0.027487 at M = 100", () => {
    const marginalsOfP = allPermutations(3).map((order) => permutationMarginals(order, bigValueOf(e1.game))[0]!);
    assert.equal(marginalsOfP.length, 6);
    const mean = sum(marginalsOfP) / 6;
    const variance = sum(marginalsOfP.map((m) => (m - mean) ** 2)) / 6;
    assert.ok(Math.abs(mean - 4 / 15) < 1e-12, `mean ${mean}`);
    assert.ok(Math.abs(variance - 17 / 225) < 1e-12, `variance ${variance}`);
    assert.ok(Math.abs(Math.sqrt(variance / 100) - 0.027487) < 1e-6);
  });

  it('permutationMarginals(order, v) telescopes to v(N) − v(∅) and calls v n + 1 times', () => {
    for (const game of randomGames(50, 41)) {
      let calls = 0;
      const order = Array.from({ length: game.n }, (_, i) => game.n - 1 - i);
      const marginals = permutationMarginals(order, (mask) => (calls++, game.values[Number(mask)]!));
      assert.equal(calls, game.n + 1);
      assert.ok(Math.abs(sum(marginals) - (game.values[(1 << game.n) - 1]! - game.values[0]!)) < 1e-12);
    }
  });

  it('permutationMarginals(order, v, out) writes into out, and an empty order gives an empty array', () => {
    const out = new Float64Array(3);
    assert.equal(permutationMarginals([2, 1, 0], bigValueOf(e1.game), out), out);
    assertClose(out, [3 / 5, 2 / 5, 0], 1e-12);
    assert.equal(permutationMarginals([], () => 1).length, 0);
  });
});
