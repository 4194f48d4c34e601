import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  airportGame,
  gameValues,
  monteCarloCoverage,
  unanimityGame,
  votingGame,
} from '../../../bench/monteCarloCoverage';
import { episodeCredit } from '../../../src/engine/credit/episodeCredit';
import { defaultMonteCarlo, monteCarloCredit } from '../../../src/engine/credit/monteCarloCredit';

// Seeded runs through the engine's code path with the default settings; deterministic, not timed.

test('monteCarloCredit: ≥ 93% coverage on the 10-agent unanimity game and no zero-width interval', async () => {
  const [row] = await monteCarloCoverage([unanimityGame(10)], 300);
  assert.ok(row);
  assert.ok(row.coverage >= 0.93, `coverage ${row.coverage}`);
  assert.equal(row.zeroWidth, 0);
  assert.ok(row.efficiencyGap < 1e-12);
});

test('monteCarloCredit: about 95% coverage on an airport and a weighted voting game', async () => {
  const rows = await monteCarloCoverage([airportGame(10), votingGame([1, 1, 2, 2, 3, 3, 4, 5, 6, 7], 18)], 300);
  for (const row of rows) {
    assert.ok(row.coverage >= 0.92 && row.coverage <= 0.985, `${row.game}: coverage ${row.coverage}`);
    assert.equal(row.zeroWidth, 0, row.game);
    assert.ok(row.efficiencyGap < 1e-12, row.game);
  }
});

test('monteCarloCredit: reproducible from seed ^ episodeId, and reports both seeds', async () => {
  const game = airportGame(10);
  const first = await monteCarloCredit(gameValues(game, 7), defaultMonteCarlo);
  const again = await monteCarloCredit(gameValues(game, 7), defaultMonteCarlo);
  const other = await monteCarloCredit(gameValues(game, 8), defaultMonteCarlo);
  assert.deepEqual(first, again);
  assert.notDeepEqual(first.values, other.values);
  assert.equal(first.seed, 1);
  assert.equal(first.episodeSeed, 1 ^ 7);
});

test('monteCarloCredit: n = 40 and n = 64 give efficient estimates within the permutation budget', async () => {
  for (const n of [40, 64]) {
    const game = unanimityGame(n);
    const estimate = await monteCarloCredit(gameValues(game, 1), defaultMonteCarlo);
    assert.ok(Math.abs(estimate.values.reduce((a, b) => a + b, 0) - 0.1) < 1e-12, `n = ${n}`);
    assert.ok(estimate.permutations <= defaultMonteCarlo.maxPermutations && estimate.permutations % n === 0);
    assert.ok(estimate.stderr.every((se) => se > 0));
  }
});

test('monteCarloCredit: a 3-agent game is enumerated, so the values are exact with SE 0', async () => {
  const small = { name: 'additive', n: 3, value: (mask: bigint) => Number(mask) / 7, truth: [1 / 7, 2 / 7, 4 / 7] };
  const estimate = await monteCarloCredit(gameValues(small, 0), defaultMonteCarlo);
  assert.equal(estimate.converged, true);
  assert.deepEqual(Array.from(estimate.stderr), [0, 0, 0]);
  small.truth.forEach((phi, i) => assert.ok(Math.abs(estimate.values[i]! - phi) < 1e-12));
});

test('exact shapley refuses more than 16 agents and points to shapley-mc', async () => {
  const episode = { episodeId: 1, agents: Array.from({ length: 17 }, (_, i) => ({ agentId: `a${i}` })) };
  const input = {
    episode,
    method: 'shapley',
    values: () => assert.fail('no values needed'),
    messageValues: () => assert.fail('no values needed'),
    monteCarlo: defaultMonteCarlo,
    lastSpeaker: undefined,
  };
  await assert.rejects(
    episodeCredit(input as unknown as Parameters<typeof episodeCredit>[0]),
    /use shapley-mc for more than 16 agents/,
  );
});
