import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OwenOrders, owenMonteCarlo } from '../../../../src/credit/game/owenMonteCarlo';
import { owenValues } from '../../../../src/credit/game/owenValues';
import { bigValueOf, randomGame, seeded, sum, valueOf, withNullPlayer, withSymmetricPair } from './games';

/** A seeded random partition of `t` messages into `agents` unions (some may be empty). */
function randomUnions(t: number, agents: number, random: () => number): number[][] {
  const unions: number[][] = Array.from({ length: agents }, () => []);
  for (let message = 0; message < t; message++) unions[Math.floor(random() * agents)]!.push(message);
  return unions;
}

/** Messages 0..t−1 written in turn by `agents` agents (message i by agent i mod agents). */
function roundRobin(t: number, agents: number): number[][] {
  return Array.from({ length: agents }, (_, k) =>
    Array.from({ length: t }, (_, i) => i).filter((i) => i % agents === k),
  );
}

/**
 * A game on `t` round-robin messages of 4 agents with known Owen values: each message is worth
 * `a_i`, and three consecutive messages together `c_i` more. The bonus is a unanimity game on
 * messages of three different agents, so the Owen value gives each of them a third:
 * Ow_i = a_i + (c_{i−2} + c_{i−1} + c_i) / 3. (Pairs would be degenerate: an order and its reverse
 * put each pair both ways, so an antithetic unit would be exact.)
 */
function tripleGame(t: number, random: () => number) {
  const a = Float64Array.from({ length: t }, () => random() / t);
  const c = Float64Array.from({ length: t - 2 }, () => (random() < 0.3 ? (6 * random()) / t : 0));
  const value = (mask: bigint): number => {
    const digits = mask.toString(2);
    const has = (i: number): boolean => i < digits.length && digits.charCodeAt(digits.length - 1 - i) === 49;
    let v = 0;
    for (let i = 0; i < t; i++) {
      if (has(i)) v += a[i] as number;
      if (i + 2 < t && has(i) && has(i + 1) && has(i + 2)) v += c[i] as number;
    }
    return v;
  };
  const owen = Float64Array.from(a, (ai, i) => ai + ((c[i - 2] ?? 0) + (c[i - 1] ?? 0) + (c[i] ?? 0)) / 3);
  const all = (1n << BigInt(t)) - 1n;
  return { value, owen, total: value(all) - value(0n) };
}

describe('OwenOrders', () => {
  it('draws permutations of all messages in which every union arrives contiguously', () => {
    const random = seeded(5);
    const unions = [[0, 3, 5], [], [1], [2, 4]];
    const orders = new OwenOrders(unions, 6);
    for (let k = 0; k < 50; k++) {
      const order = Array.from(orders.draw(random));
      assert.deepEqual([...order].sort(), [0, 1, 2, 3, 4, 5]);
      const unionOf = order.map((m) => unions.findIndex((u) => u.includes(m)));
      const runs = unionOf.filter((u, i) => i === 0 || u !== unionOf[i - 1]);
      assert.equal(new Set(runs).size, runs.length, `union split in ${order.join(',')}`);
    }
    assert.throws(() => new OwenOrders([[0, 1], [1]], 2), /OwenOrders: message 1/);
  });
});

describe('owenMonteCarlo', () => {
  it('agrees with exact Owen values on up to 12 messages: ≥ 90% of the 95% intervals cover, the rest are close', () => {
    const random = seeded(2026);
    let covered = 0;
    let total = 0;
    for (let c = 0; c < 12; c++) {
      const t = 3 + (c % 10);
      const game = randomGame(t, random);
      const unions = randomUnions(t, 2 + (c % 3), random);
      const exact = owenValues(unions, t, valueOf(game));
      const estimate = owenMonteCarlo(unions, t, bigValueOf(game), { maxPermutations: 300, random: seeded(c) });
      for (let i = 0; i < t; i++) {
        total++;
        if (estimate.ciLow[i]! <= exact[i]! && exact[i]! <= estimate.ciHigh[i]!) covered++;
        assert.ok(
          Math.abs(estimate.values[i]! - exact[i]!) < 6 * estimate.stderr[i]! + 1e-12,
          `case ${c}, message ${i}`,
        );
      }
    }
    assert.ok(covered / total >= 0.9, `coverage ${covered}/${total}`);
  });

  it('conserves exactly: the estimates sum to v(all) − v(∅) for any number of orders', () => {
    const random = seeded(11);
    for (const maxPermutations of [1, 2, 7, 40]) {
      const game = randomGame(9, random, true);
      const estimate = owenMonteCarlo(randomUnions(9, 3, random), 9, bigValueOf(game), {
        maxPermutations,
        random: seeded(maxPermutations),
      });
      assert.ok(Math.abs(sum(estimate.values) - (game.values[511]! - game.values[0]!)) < 1e-12);
      assert.ok(estimate.permutations <= maxPermutations + 1, 'antithetic pairs are never split');
    }
  });

  it('gives a null message exactly 0, with an interval around it', () => {
    const game = withNullPlayer(randomGame(8, seeded(3)), 5);
    const estimate = owenMonteCarlo(roundRobin(8, 3), 8, bigValueOf(game), { random: seeded(4) });
    assert.equal(estimate.values[5], 0);
    assert.ok(estimate.ciLow[5]! < 0 && estimate.ciHigh[5]! > 0, 'a sampled zero is not a proven zero');
  });

  it('gives identical messages of one agent the same value within their intervals', () => {
    const game = withSymmetricPair(randomGame(8, seeded(8)), 0, 3);
    const unions = [
      [0, 3, 6],
      [1, 4, 7],
      [2, 5],
    ];
    const exact = owenValues(unions, 8, valueOf(game));
    assert.ok(Math.abs(exact[0]! - exact[3]!) < 1e-12, 'the oracle: exact Owen values are equal');
    const estimate = owenMonteCarlo(unions, 8, bigValueOf(game), { maxPermutations: 400, random: seeded(9) });
    const gap = Math.abs(estimate.values[0]! - estimate.values[3]!);
    const halfWidths = estimate.ciHigh[0]! - estimate.values[0]! + (estimate.ciHigh[3]! - estimate.values[3]!);
    assert.ok(gap <= halfWidths, `gap ${gap} vs half-widths ${halfWidths}`);
  });

  it('estimates a 200-message, 4-agent game with triple interactions: distinct values, intervals that cover the known Owen values, conservation', () => {
    const t = 200;
    const game = tripleGame(t, seeded(200));
    const estimate = owenMonteCarlo(roundRobin(t, 4), t, game.value, {
      maxPermutations: 200,
      targetStderr: 0,
      random: seeded(1),
    });
    assert.equal(estimate.permutations, 200);
    assert.ok(Math.abs(sum(estimate.values) - game.total) < 1e-9);
    assert.ok(new Set(estimate.values).size > 190, 'per-message values, not a spread');
    const slack = 1e-12; // the known value is summed in another order
    const covered = game.owen.filter(
      (truth, i) => estimate.ciLow[i]! - slack <= truth && truth <= estimate.ciHigh[i]! + slack,
    ).length;
    assert.ok(covered >= 0.9 * t, `coverage ${covered}/${t}`);
    assert.ok(
      estimate.ciLow.every((low, i) => low < estimate.ciHigh[i]!),
      'every interval has a width',
    );
    assert.ok(estimate.evaluations <= 200 * 201);
  });

  it('returns empty arrays for no messages and throws on a bad partition', () => {
    const estimate = owenMonteCarlo([[]], 0, () => 1);
    assert.equal(estimate.values.length, 0);
    assert.equal(estimate.converged, true);
    assert.throws(() => owenMonteCarlo([[0]], 2, () => 1), /owen|Owen/);
  });
});
