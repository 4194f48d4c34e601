import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CoalitionTable, coalitionTable, popcount } from '../../../../src/credit/game/coalitionGame';
import { interactionIndices } from '../../../../src/credit/game/interactionIndices';
import { assertClose, maskOf, randomGames, withNullPlayer, withSymmetricPair } from './games';
import { agentOracles } from './oracles';

const factorial = (k: number): number => (k <= 1 ? 1 : k * factorial(k - 1));

/** I_ij straight from the §3.7 formula, with factorials and a scan of every mask. */
function naiveIndex(table: CoalitionTable, i: number, j: number): number {
  const { n, values } = table;
  const bitI = 1 << i;
  const bitJ = 1 << j;
  let total = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    if ((mask & (bitI | bitJ)) !== 0) continue;
    const s = popcount(mask);
    const weight = (factorial(s) * factorial(n - s - 2)) / factorial(n - 1);
    total += weight * (values[mask | bitI | bitJ]! - values[mask | bitI]! - values[mask | bitJ]! + values[mask]!);
  }
  return total;
}

describe('interactionIndices', () => {
  for (const oracle of agentOracles.filter((o) => o.interactions !== undefined)) {
    it(`interactionIndices(table) matches ${oracle.name} (credit-methods.md §8)`, () => {
      const matrix = interactionIndices(oracle.game);
      const n = oracle.game.n;
      for (const [pair, expected] of Object.entries(oracle.interactions!)) {
        const [i, j] = [oracle.players.indexOf(pair[0]!), oracle.players.indexOf(pair[1]!)];
        assert.ok(
          Math.abs(matrix[i * n + j]! - expected) < 1e-9,
          `I_${pair} = ${matrix[i * n + j]}, expected ${expected}`,
        );
        assert.ok(Math.abs(matrix[j * n + i]! - expected) < 1e-9, `I_${pair} (transposed)`);
      }
      assert.ok(maskOf(oracle.players, oracle.players) === (1 << n) - 1);
    });
  }

  it('interactionIndices(table) returns a symmetric n×n matrix with NaN on the diagonal, equal to the §3.7 formula', () => {
    for (const game of randomGames(50, 31, 8)) {
      const n = game.n;
      const matrix = interactionIndices(game);
      assert.equal(matrix.length, n * n);
      for (let i = 0; i < n; i++) {
        assert.ok(Number.isNaN(matrix[i * n + i]));
        for (let j = i + 1; j < n; j++) {
          assert.equal(matrix[i * n + j], matrix[j * n + i]);
          assert.ok(Math.abs(matrix[i * n + j]! - naiveIndex(game, i, j)) < 1e-12, `n = ${n}, I_${i}${j}`);
        }
      }
    }
  });

  it('interactionIndices(table) gives a null player zero interaction with everyone', () => {
    for (const game of randomGames(50, 32).filter((g) => g.n >= 2)) {
      const matrix = interactionIndices(withNullPlayer(game, 0));
      for (let j = 1; j < game.n; j++) assert.equal(matrix[j], 0, `n = ${game.n}, I_0${j}`);
    }
  });

  it('interactionIndices(table) is zero for an additive game and equal for symmetric agents', () => {
    const additive = coalitionTable(5, (mask) =>
      [0.1, 0.2, 0.3, 0.4, 0.5].reduce((sum, w, i) => ((mask >> i) & 1 ? sum + w : sum), 0),
    );
    const matrix = interactionIndices(additive);
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++) if (i !== j) assert.ok(Math.abs(matrix[i * 5 + j]!) < 1e-15);
    const [game] = randomGames(1, 33, 6).map((g) => withSymmetricPair(g, 0, 1));
    const symmetric = interactionIndices(game!);
    for (let k = 2; k < game!.n; k++) assert.ok(Math.abs(symmetric[k]! - symmetric[game!.n + k]!) < 1e-12);
  });

  it('interactionIndices(table) returns [] for n = 0, [NaN] for n = 1, and NaN off the diagonal when v has a NaN', () => {
    assert.equal(interactionIndices(coalitionTable(0, () => 0)).length, 0);
    assertClose(interactionIndices(coalitionTable(1, (mask) => mask)), [NaN], 0);
    assertClose(interactionIndices(coalitionTable(2, (mask) => (mask === 3 ? NaN : 0))), [NaN, NaN, NaN, NaN], 0);
  });
});
