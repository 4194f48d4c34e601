import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalitionTable } from '../../../../src/credit/game/coalitionGame';
import { shapleyMonteCarlo } from '../../../../src/credit/game/shapleyMonteCarlo';
import { shapleyValues } from '../../../../src/credit/game/shapleyValues';
import { assertClose, bigValueOf, orderOf, randomGames, seeded, sum, withNullPlayer } from './games';
import { e1 } from './oracles';

const games = randomGames(60, 77);
const efficiencyGap = (values: Float64Array, game: { values: Float64Array }): number =>
  Math.abs(sum(values) - (game.values[game.values.length - 1]! - game.values[0]!));

describe('shapleyMonteCarlo', () => {
  it('shapleyMonteCarlo(n, v, {permutations: [PSV, VSP]}) gives (0.3, 0.5, 0.2) for E1 (credit-methods.md §8)', () => {
    const result = shapleyMonteCarlo(3, bigValueOf(e1.game), {
      permutations: [orderOf('PSV', 'PSV'), orderOf('PSV', 'VSP')],
    });
    assertClose(result.values, [0.3, 0.5, 0.2], 1e-12);
    assert.ok(Math.abs(sum(result.values) - 1) < 1e-12);
    assert.equal(result.permutations, 2);
    assert.equal(result.evaluations, 6); // ∅, P, PS, PSV, V, SV
    assert.equal(result.converged, false);
    // P's marginals are 0 and 3/5: sample sd 0.424264, SE 0.3; t_{0.975, 1} = 12.706205.
    assertClose(result.stderr, [0.3, 0.1, 0.2], 1e-12);
    assertClose(
      result.ciLow,
      [0.3 - 12.706204736174692 * 0.3, 0.5 - 1.2706204736174693, 0.2 - 2.5412409472349387],
      1e-9,
    );
    assertClose(
      result.ciHigh,
      [0.3 + 12.706204736174692 * 0.3, 0.5 + 1.2706204736174693, 0.2 + 2.5412409472349387],
      1e-9,
    );
  });

  it('shapleyMonteCarlo(n, v, {maxPermutations: M}) is exactly efficient for any M, and antithetic pairs too', () => {
    for (const [g, game] of games.entries()) {
      for (const antithetic of [false, true]) {
        const result = shapleyMonteCarlo(game.n, bigValueOf(game), {
          maxPermutations: 1 + (g % 7),
          targetStderr: 0,
          antithetic,
          random: seeded(g),
        });
        assert.ok(
          efficiencyGap(result.values, game) < 1e-9,
          `n = ${game.n}, M = ${result.permutations}, antithetic ${antithetic}`,
        );
      }
    }
  });

  it('shapleyMonteCarlo(n, v) gives a null player exactly 0 with any number of permutations', () => {
    for (const [g, game] of games.entries()) {
      const k = g % game.n;
      for (const antithetic of [false, true]) {
        const result = shapleyMonteCarlo(game.n, bigValueOf(withNullPlayer(game, k)), {
          maxPermutations: 3 + (g % 5),
          antithetic,
          random: seeded(g),
        });
        assert.equal(result.values[k], 0, `n = ${game.n}`);
      }
    }
  });

  it('shapleyMonteCarlo(n, v) lands within 3·SE of the exact Shapley values on at least 95% of seeded games', () => {
    for (const antithetic of [false, true]) {
      let hits = 0;
      for (const [g, game] of games.entries()) {
        const exact = shapleyValues(game);
        const result = shapleyMonteCarlo(game.n, bigValueOf(game), {
          targetStderr: 0,
          maxPermutations: 200,
          antithetic,
          random: seeded(1000 + g),
        });
        if (exact.every((phi, i) => Math.abs(result.values[i]! - phi) <= 3 * result.stderr[i]! + 1e-12)) hits++;
      }
      assert.ok(hits >= 0.95 * games.length, `antithetic ${antithetic}: ${hits} of ${games.length}`);
    }
  });

  it('shapleyMonteCarlo(n, v) reports evaluations as the number of distinct v calls, at most min(2^n, M(n−1) + 2)', () => {
    for (const [g, game] of games.entries()) {
      const seen = new Set<bigint>();
      let calls = 0;
      const value = (mask: bigint): number => (calls++, seen.add(mask), game.values[Number(mask)]!);
      const result = shapleyMonteCarlo(game.n, value, {
        maxPermutations: 1 + (g % 12),
        targetStderr: 0,
        random: seeded(g),
      });
      assert.equal(calls, seen.size, 'v is memoised');
      assert.equal(result.evaluations, calls);
      assert.ok(result.evaluations <= Math.min(2 ** game.n, result.permutations * (game.n - 1) + 2));
    }
  });

  it('shapleyMonteCarlo(n, v) returns the exact values with SE 0 once every coalition has been evaluated', () => {
    const game = games.find((g) => g.n === 3)!;
    const result = shapleyMonteCarlo(3, bigValueOf(game));
    assertClose(result.values, shapleyValues(game), 1e-12);
    assertClose(result.stderr, [0, 0, 0], 0);
    assertClose(result.ciLow, result.values, 0);
    assertClose(result.ciHigh, result.values, 0);
    assert.equal(result.evaluations, 8);
    assert.equal(result.converged, true);
    assert.ok(result.permutations < 200);
  });

  it('shapleyMonteCarlo(n, v) stops and reports converged once every SE is below the target, after minPermutations', () => {
    const game = games.find((g) => g.n === 10)!;
    const loose = shapleyMonteCarlo(10, bigValueOf(game), { targetStderr: 0.05, maxPermutations: 5000 });
    assert.equal(loose.converged, true);
    assert.ok(loose.permutations >= 10 && loose.permutations < 5000);
    assert.ok(Math.max(...loose.stderr) < 0.05);
    const tight = shapleyMonteCarlo(10, bigValueOf(game), { targetStderr: 1e-6, maxPermutations: 30 });
    assert.equal(tight.converged, false);
    assert.equal(tight.permutations, 30);
    // Constant marginals are tied samples, not proof of zero variance: SE > 0, but small enough to stop.
    const additive = coalitionTable(10, (mask) => mask / 1024);
    const early = shapleyMonteCarlo(10, bigValueOf(additive), {
      targetStderr: 0.01,
      rotation: false,
      minPermutations: 4,
    });
    assert.equal(early.converged, true);
    assert.ok(early.permutations > 4 && early.permutations < 200, `${early.permutations} permutations`);
    assert.ok(early.stderr.every((se) => se > 0 && se < 0.01));
    assertClose(
      early.values,
      Array.from({ length: 10 }, (_, i) => 2 ** i / 1024),
      1e-12,
    );
  });

  it('shapleyMonteCarlo(n, v, {antithetic: true}) walks each permutation and its reverse, never splitting a pair', () => {
    const game = games.find((g) => g.n === 8)!;
    const result = shapleyMonteCarlo(8, bigValueOf(game), { antithetic: true, maxPermutations: 7, targetStderr: 0 });
    assert.equal(result.permutations, 8);
    const listed = shapleyMonteCarlo(8, bigValueOf(game), {
      antithetic: true,
      permutations: [[0, 1, 2, 3, 4, 5, 6, 7]],
      targetStderr: 0,
    });
    const both = shapleyMonteCarlo(8, bigValueOf(game), {
      permutations: [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [7, 6, 5, 4, 3, 2, 1, 0],
      ],
      targetStderr: 0,
    });
    assertClose(listed.values, both.values, 1e-12);
    assert.equal(listed.permutations, 2);
    assert.ok(Number.isNaN(listed.stderr[0]), 'one pair is one sample');
  });

  it('shapleyMonteCarlo(n, v) is reproducible with the default seed and follows an injected random source', () => {
    const game = games.find((g) => g.n === 9)!;
    const first = shapleyMonteCarlo(9, bigValueOf(game), { maxPermutations: 20 });
    const again = shapleyMonteCarlo(9, bigValueOf(game), { maxPermutations: 20 });
    const other = shapleyMonteCarlo(9, bigValueOf(game), { maxPermutations: 20, random: seeded(99) });
    assert.deepEqual(first, again);
    assert.notDeepEqual(first.values, other.values);
  });

  it('shapleyMonteCarlo(0, v) returns empty arrays and shapleyMonteCarlo(1, v) the exact v(1) − v(∅)', () => {
    const empty = shapleyMonteCarlo(0, () => 1);
    assert.equal(empty.values.length, 0);
    assert.equal(empty.stderr.length, 0);
    assert.equal(empty.converged, true);
    const one = shapleyMonteCarlo(1, (mask) => (mask === 0n ? 0.1 : 0.7));
    assertClose(one.values, [0.6], 1e-15);
    assertClose(one.stderr, [0], 0);
    assert.equal(one.permutations, 1);
    assert.equal(one.evaluations, 2);
  });

  it('shapleyMonteCarlo(n, v) propagates NaN values to NaN credit without throwing, and NaN values with no sample', () => {
    const result = shapleyMonteCarlo(12, (mask) => (mask === 0n ? NaN : Number(mask) / 4096), { maxPermutations: 15 });
    assert.ok(!Array.from(result.values).every(Number.isNaN), 'only agents whose marginals meet NaN are NaN');
    assert.ok(Array.from(result.values).some(Number.isNaN));
    assert.equal(result.converged, false);
    assert.equal(result.permutations, 15);
    const none = shapleyMonteCarlo(2, () => 1, { permutations: [] });
    assertClose(none.values, [NaN, NaN], 0);
    assert.equal(none.permutations, 0);
  });

  it('shapleyMonteCarlo(n, v, options) throws a RangeError for programmer errors', () => {
    const v = (): number => 0;
    assert.throws(() => shapleyMonteCarlo(-1, v), RangeError);
    assert.throws(() => shapleyMonteCarlo(2.5, v), RangeError);
    assert.throws(() => shapleyMonteCarlo(3, v, { permutations: [[0, 1, 1]] }), /not a permutation/);
    assert.throws(() => shapleyMonteCarlo(3, v, { permutations: [[0, 1]] }), /not a permutation/);
    assert.throws(() => shapleyMonteCarlo(3, v, { maxPermutations: 0 }), RangeError);
    assert.throws(() => shapleyMonteCarlo(3, v, { confidence: 1 }), RangeError);
    assert.throws(() => shapleyMonteCarlo(3, v, { targetStderr: NaN }), RangeError);
  });
});
