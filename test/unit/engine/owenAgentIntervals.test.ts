import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coalitionTable } from '../../../src/credit/game/coalitionGame';
import { shapleyValues } from '../../../src/credit/game/shapleyValues';
import { mulberry32 } from '../../../src/core/mulberry32';
import { defaultMonteCarlo, owenMonteCarloCredit, type MaskValues } from '../../../src/engine/credit/monteCarloCredit';

// Agent rows of Monte-Carlo Owen (credit-methods.md §3.12): each agent's total has its own interval,
// checked against the exact Owen total (the agents' Shapley value in the game between agents).

const agents = 3;
const messages = 18;
const unions = Array.from({ length: agents }, (_, a) =>
  Array.from({ length: messages }, (_, seq) => seq).filter((seq) => seq % agents === a),
);

/**
 * A saturating game over messages with seeded weights, `tanh(2 Σ w)`: marginals depend on what came
 * before, beyond pairs (a quadratic game's antithetic pairs would be exact, and prove nothing).
 */
function saturatingGame(seed: number): (mask: bigint) => number {
  const random = mulberry32(seed);
  const weights = Array.from({ length: messages }, () => random() - 0.3);
  return (mask) => {
    let sum = 0;
    for (let seq = 0; seq < messages; seq++) if ((mask >> BigInt(seq)) & 1n) sum += weights[seq] as number;
    return Math.tanh(2 * sum);
  };
}

function maskValues(episodeId: number, value: (mask: bigint) => number): MaskValues {
  return { episode: { episodeId, agents: unions }, require: () => Promise.resolve(), value };
}

/** The exact Owen totals: Shapley values of the game whose players are the agents' message sets. */
function exactTotals(value: (mask: bigint) => number): Float64Array {
  const unionMask = unions.map((members) => members.reduce((m, seq) => m | (1n << BigInt(seq)), 0n));
  return shapleyValues(
    coalitionTable(agents, (agentMask) => value(unionMask.reduce((m, u, a) => ((agentMask >> a) & 1 ? m | u : m), 0n))),
  );
}

test('Monte-Carlo Owen agent totals: their 95% intervals cover the exact Owen total about 95% of the time', async () => {
  let covered = 0;
  let intervals = 0;
  for (let game = 1; game <= 60; game++) {
    const value = saturatingGame(game);
    const exact = exactTotals(value);
    const settings = { ...defaultMonteCarlo, maxPermutations: 24, targetStderr: 0 };
    const estimate = await owenMonteCarloCredit(maskValues(game, value), unions, settings);
    const totals = estimate.unionTotals;
    assert.ok(totals, 'an estimated episode has agent totals');
    for (let a = 0; a < agents; a++) {
      const sum = unions[a]?.reduce((s, seq) => s + (estimate.values[seq] as number), 0) ?? NaN;
      assert.ok(Math.abs(sum - (totals.values[a] as number)) < 1e-9, 'the total is the sum of its messages');
      assert.ok((totals.ciHigh[a] as number) > (totals.ciLow[a] as number), 'no zero-width interval');
      intervals++;
      if ((totals.ciLow[a] as number) <= (exact[a] as number) && (exact[a] as number) <= (totals.ciHigh[a] as number))
        covered++;
    }
  }
  const coverage = covered / intervals;
  assert.ok(coverage >= 0.88 && coverage <= 0.995, `coverage ${coverage} of ${intervals}`);
});

test("a lone speaking agent's total is exact (SE 0) and a silent agent's is 0", async () => {
  const lone = [Array.from({ length: messages }, (_, seq) => seq), []];
  const value = saturatingGame(3);
  const estimate = await owenMonteCarloCredit(
    { episode: { episodeId: 1, agents: lone }, require: () => Promise.resolve(), value },
    lone,
    { ...defaultMonteCarlo, maxPermutations: 8 },
  );
  const totals = estimate.unionTotals;
  assert.ok(totals);
  const full = (1n << BigInt(messages)) - 1n;
  assert.ok(Math.abs((totals.values[0] as number) - (value(full) - value(0n))) < 1e-9);
  assert.deepEqual(
    [totals.stderr[0], totals.stderr[1], totals.values[1], totals.ciLow[1], totals.ciHigh[1]],
    [0, 0, 0, 0, 0],
  );
  assert.equal(totals.ciLow[0], totals.values[0]);
});
