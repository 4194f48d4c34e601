import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalitionTable } from '../../../../src/credit/game/coalitionGame';
import { owenValues } from '../../../../src/credit/game/owenValues';
import { shapleyValues } from '../../../../src/credit/game/shapleyValues';
import { assertClose, randomGame, seeded, sum, valueOf, withNullPlayer } from './games';
import { e10Unions, e10Value, e10Variant, e10VariantUnions } from './oracles';

/** A seeded random partition of `t` messages into `agents` unions (some may be empty). */
function randomUnions(t: number, agents: number, random: () => number): number[][] {
  const unions: number[][] = Array.from({ length: agents }, () => []);
  for (let message = 0; message < t; message++) unions[Math.floor(random() * agents)]!.push(message);
  return unions;
}

/** The agent-level (quotient) game: v_Q(R) = v(messages of the agents in R). */
function quotientShapley(unions: readonly (readonly number[])[], value: (mask: number) => number): Float64Array {
  const masks = unions.map((union) => union.reduce((mask, m) => mask | (1 << m), 0));
  return shapleyValues(
    coalitionTable(unions.length, (r) => value(masks.reduce((mask, m, k) => ((r >> k) & 1 ? mask | m : mask), 0))),
  );
}

const random = seeded(2026);
const cases = Array.from({ length: 60 }, (_, c) => {
  const t = 1 + (c % 9);
  const game = randomGame(t, random, c % 4 === 3);
  return { game, unions: randomUnions(t, 1 + (c % 4), random) };
});

describe('owenValues', () => {
  it('owenValues(unions, 4, v) gives (1/5, 1/5, 3/5, 0) for E10, conserving agent Shapley (2/5, 3/5)', () => {
    const owen = owenValues(e10Unions, 4, e10Value);
    assertClose(owen, [1 / 5, 1 / 5, 3 / 5, 0], 1e-9);
    assertClose(quotientShapley(e10Unions, e10Value), [2 / 5, 3 / 5], 1e-9);
    assert.ok(Math.abs(owen[0]! + owen[1]! - 2 / 5) < 1e-9 && Math.abs(owen[2]! + owen[3]! - 3 / 5) < 1e-9);
  });

  it('owenValues(unions, 3, v) equals plain Shapley (1/4, 1/5, 11/20) on the non-discriminating E10 variant', () => {
    assertClose(owenValues(e10VariantUnions, 3, valueOf(e10Variant)), [1 / 4, 1 / 5, 11 / 20], 1e-9);
  });

  it("owenValues(unions, T, v) conserves: each union's messages sum to its quotient-game Shapley value, all to v(all) − v(∅)", () => {
    for (const { game, unions } of cases) {
      const owen = owenValues(unions, game.n, valueOf(game));
      const agents = quotientShapley(unions, valueOf(game));
      unions.forEach((union, k) => {
        const total = union.reduce((s, m) => s + owen[m]!, 0);
        assert.ok(Math.abs(total - agents[k]!) < 1e-9, `T = ${game.n}, union ${k}: ${total} vs ${agents[k]}`);
      });
      assert.ok(Math.abs(sum(owen) - (game.values[(1 << game.n) - 1]! - game.values[0]!)) < 1e-9);
    }
  });

  it('owenValues(unions, T, v) gives zero credit to a null message', () => {
    for (const { game, unions } of cases) {
      const k = game.n - 1;
      assert.equal(owenValues(unions, game.n, valueOf(withNullPlayer(game, k)))[k], 0, `T = ${game.n}`);
    }
  });

  it('owenValues(unions, T, v) reduces to Shapley with singleton unions or with one union of every message', () => {
    for (const { game } of cases) {
      const all = Array.from({ length: game.n }, (_, m) => m);
      assertClose(
        owenValues(
          all.map((m) => [m]),
          game.n,
          valueOf(game),
        ),
        shapleyValues(game),
        1e-12,
        'singletons',
      );
      assertClose(owenValues([all], game.n, valueOf(game)), shapleyValues(game), 1e-12, 'one union');
    }
  });

  it('owenValues(unions, T, v) evaluates each coalition at most once, so a noisy v still conserves', () => {
    const noise = seeded(5);
    const calls = new Map<number, number>();
    const seen = new Map<number, number>();
    const noisy = (mask: number): number => {
      calls.set(mask, (calls.get(mask) ?? 0) + 1);
      const draw = noise();
      seen.set(mask, draw);
      return draw;
    };
    const owen = owenValues([[0, 2], [1], [3, 4]], 5, noisy);
    assert.ok([...calls.values()].every((count) => count === 1));
    assert.ok(Math.abs(sum(owen) - (seen.get(31)! - seen.get(0)!)) < 1e-12);
  });

  it('owenValues([], 0, v) returns an empty array; NaN values give NaN credit, without throwing', () => {
    assert.equal(owenValues([], 0, () => 1).length, 0);
    assert.equal(owenValues([[], []], 0, () => 1).length, 0);
    const owen = owenValues([[0], [1]], 2, (mask) => (mask === 3 ? NaN : 0));
    assertClose(owen, [NaN, NaN], 0);
  });

  it('owenValues(unions, T, v) throws a RangeError when unions are not a partition of the messages', () => {
    const v = (): number => 0;
    assert.throws(() => owenValues([[0, 1], [1]], 2, v), /two unions/);
    assert.throws(() => owenValues([[0]], 2, v), /belongs to no union/);
    assert.throws(() => owenValues([[0, 2]], 2, v), RangeError);
    assert.throws(() => owenValues([[0]], 21, v), RangeError);
  });
});
