import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalitionTable } from '../../../../src/credit/game/coalitionGame';
import { permutationMarginals } from '../../../../src/credit/game/permutationMarginals';
import { shapleyValues } from '../../../../src/credit/game/shapleyValues';
import {
  allPermutations,
  assertClose,
  bigValueOf,
  randomGames,
  seeded,
  sum,
  sumGame,
  withNullPlayer,
  withSymmetricPair,
} from './games';
import { agentOracles } from './oracles';

const games = randomGames(60, 20260401);

describe('shapleyValues', () => {
  for (const oracle of agentOracles) {
    it(`shapleyValues(table) matches ${oracle.name} (credit-methods.md §8)`, () => {
      assertClose(shapleyValues(oracle.game), oracle.shapley, 1e-9, oracle.name);
    });
  }

  it('shapleyValues(table) is efficient: Σφ = v(N) − v(∅) on seeded random games, n = 1..10', () => {
    for (const game of games) {
      const full = game.values[game.values.length - 1]! - game.values[0]!;
      assert.ok(Math.abs(sum(shapleyValues(game)) - full) < 1e-9, `n = ${game.n}`);
    }
  });

  it('shapleyValues(table) gives equal credit to two agents with identical marginal contributions', () => {
    const random = seeded(7);
    for (const game of games.filter((g) => g.n >= 2)) {
      const i = Math.floor(random() * game.n);
      const j = (i + 1 + Math.floor(random() * (game.n - 1))) % game.n;
      const phi = shapleyValues(withSymmetricPair(game, i, j));
      assert.ok(Math.abs(phi[i]! - phi[j]!) < 1e-12, `n = ${game.n}, agents ${i} and ${j}: ${phi[i]} vs ${phi[j]}`);
    }
  });

  it('shapleyValues(table) gives zero credit to a null player', () => {
    for (const game of games) {
      const k = game.n - 1;
      assert.equal(shapleyValues(withNullPlayer(game, k))[k], 0, `n = ${game.n}`);
    }
  });

  it('shapleyValues(table) is additive: φ(v + w) = φ(v) + φ(w)', () => {
    for (let g = 0; g + 10 < games.length; g++) {
      const v = games[g]!;
      const w = games[g + 10]!;
      const expected = shapleyValues(v).map((phi, i) => phi + shapleyValues(w)[i]!);
      assertClose(shapleyValues(sumGame(v, w)), expected, 1e-12, `n = ${v.n}`);
    }
  });

  it('shapleyValues(table) equals the mean marginal over all n! orders (n ≤ 6)', () => {
    for (const game of games.filter((g) => g.n <= 6)) {
      const orders = allPermutations(game.n);
      const mean = new Float64Array(game.n);
      for (const order of orders)
        permutationMarginals(order, bigValueOf(game)).forEach((m, i) => (mean[i] = mean[i]! + m / orders.length));
      assertClose(shapleyValues(game), mean, 1e-12, `n = ${game.n}`);
    }
  });

  it('shapleyValues(table) returns an empty array for n = 0 and v(1) − v(∅) for n = 1', () => {
    assert.equal(shapleyValues(coalitionTable(0, () => 5)).length, 0);
    assertClose(shapleyValues(coalitionTable(1, (mask) => (mask === 0 ? 0.25 : 1))), [0.75], 0);
  });

  it('shapleyValues(table) turns a NaN coalition value into NaN credit for every agent, without throwing', () => {
    const table = coalitionTable(3, (mask) => (mask === 0b010 ? NaN : mask / 7));
    assertClose(shapleyValues(table), [NaN, NaN, NaN], 0);
  });

  it('shapleyValues(table) throws a RangeError for a malformed table', () => {
    assert.throws(() => shapleyValues({ n: 3, values: new Float64Array(7) }), RangeError);
    assert.throws(() => shapleyValues({ n: 21, values: new Float64Array(0) }), /0 to 20/);
  });

  it('shapleyValues(table) takes well under 50 ms at n = 12 and stays fast at n = 16', () => {
    const random = seeded(3);
    const twelve = coalitionTable(12, () => random());
    const sixteen = coalitionTable(16, () => random());
    shapleyValues(twelve);
    const start = performance.now();
    shapleyValues(twelve);
    const middle = performance.now();
    shapleyValues(sixteen);
    const end = performance.now();
    assert.ok(middle - start < 50, `n = 12 took ${middle - start} ms`);
    assert.ok(end - middle < 1000, `n = 16 took ${end - middle} ms`);
  });
});
