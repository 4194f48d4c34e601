import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalitionTable } from '../../../../src/credit/game/coalitionGame';
import { leaveOneOut, leaveOneOutFrom } from '../../../../src/credit/game/leaveOneOut';
import { assertClose, randomGames, sum, withNullPlayer } from './games';
import { agentOracles, e1 } from './oracles';

describe('leaveOneOut', () => {
  for (const oracle of agentOracles) {
    it(`leaveOneOut(table) matches ${oracle.name} (credit-methods.md §8)`, () => {
      assertClose(leaveOneOut(oracle.game), oracle.loo, 1e-9, oracle.name);
    });
  }

  it('leaveOneOut(table) is not efficient: Σ LOO = 2 in E1 and in the AND game, 0 in the OR game', () => {
    assert.ok(Math.abs(sum(leaveOneOut(e1.game)) - 2) < 1e-12);
    const and = agentOracles.find((o) => o.name.startsWith('E3 AND'))!;
    const or = agentOracles.find((o) => o.name.startsWith('E3 OR'))!;
    assert.equal(sum(leaveOneOut(and.game)), 2);
    assert.equal(sum(leaveOneOut(or.game)), 0);
  });

  it('leaveOneOut(table) gives zero credit to a null player', () => {
    for (const game of randomGames(50, 11)) assert.equal(leaveOneOut(withNullPlayer(game, 0))[0], 0, `n = ${game.n}`);
  });

  it('leaveOneOut(table) returns an empty array for n = 0 and propagates NaN from v(N) to every agent', () => {
    assert.equal(leaveOneOut(coalitionTable(0, () => 1)).length, 0);
    assertClose(leaveOneOut(coalitionTable(2, (mask) => (mask === 3 ? NaN : 1))), [NaN, NaN], 0);
    assertClose(leaveOneOut(coalitionTable(2, (mask) => (mask === 1 ? NaN : 1))), [0, NaN], 0);
  });
});

describe('leaveOneOutFrom', () => {
  it('leaveOneOutFrom(full, without) matches E1 from the logged v(N) and v(N \\ {i}) only', () => {
    assertClose(leaveOneOutFrom(1, [2 / 5, 0, 3 / 5]), e1.loo, 1e-12);
  });

  it('leaveOneOutFrom(full, without) equals leaveOneOut(table) on seeded random games', () => {
    for (const game of randomGames(50, 12)) {
      const full = (1 << game.n) - 1;
      const without = Array.from({ length: game.n }, (_, i) => game.values[full & ~(1 << i)]!);
      assertClose(leaveOneOutFrom(game.values[full]!, without), leaveOneOut(game), 0, `n = ${game.n}`);
    }
  });

  it('leaveOneOutFrom(full, without) returns an empty array for no agents and NaN for a missing counterfactual', () => {
    assert.equal(leaveOneOutFrom(1, []).length, 0);
    assertClose(leaveOneOutFrom(1, [NaN, 0.5]), [NaN, 0.5], 0);
    assertClose(leaveOneOutFrom(NaN, [0, 0.5]), [NaN, NaN], 0);
  });
});
