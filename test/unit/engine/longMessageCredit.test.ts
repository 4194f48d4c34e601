import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CreditEpisode } from '../../../src/core/creditInput';
import type { CoalitionValues } from '../../../src/engine/credit/coalitionValues';
import { messageCredit } from '../../../src/engine/credit/messageCredit';
import { defaultMonteCarlo } from '../../../src/engine/credit/monteCarloCredit';
import type { Evaluator } from '../../../src/engine/evaluators/evaluator';
import { evaluatedMessageValues } from './messageValues';

// Per-message credit at any length (credit-methods.md §3.12) through the engine's code path.

const messages = 200;
const agents = ['planner', 'solver', 'verifier'];

/** A 200-message, three-agent episode that logs only its reward (message i by agent i mod 3). */
function longEpisode(reward: number): CreditEpisode {
  return {
    episodeId: 7,
    externalId: 'long',
    runId: 1,
    step: 1,
    group: null,
    reward,
    groundTruth: null,
    agents: agents.map((name, i) => ({ agentId: i + 1, name })),
    uri: 'long.jsonl',
    offset: 0,
    length: 0,
    line: 1,
    loggedCoalitions: new Map([[0b111n, reward]]),
    loggedCounterfactuals: [],
    messageAuthors: Array.from({ length: messages }, (_, i) => i % agents.length),
    labels: [],
  };
}

function hasMessage(mask: bigint, seq: number): boolean {
  return ((mask >> BigInt(seq)) & 1n) === 1n;
}

/**
 * A deterministic message game: message i is worth w_i = (i mod 7) / 1000, the last message (the
 * answer) is worth 0.3 more when message 0 (the plan) is kept too; the factual episode scores its
 * total (the logged reward). Every message's marginal differs, so prefix credit is per message.
 */
function messageValue(mask: bigint): number {
  let v = 0;
  for (let i = 0; i < messages; i++) if (hasMessage(mask, i)) v += (i % 7) / 1000;
  return hasMessage(mask, 0) && hasMessage(mask, messages - 1) ? v + 0.3 : v;
}
const full = (1n << BigInt(messages)) - 1n;

const evaluator: Evaluator = {
  fingerprint: 'stub',
  label: 'the stub',
  replays: true,
  evaluate: (request) =>
    Promise.resolve({
      rewards: new Map(request.masks.map((m) => [m, request.kind === 'agents' ? messageValue(full) : messageValue(m)])),
      replayed: true,
    }),
  close: () => Promise.resolve(),
};

function values(): CoalitionValues {
  return evaluatedMessageValues(longEpisode(messageValue(full)), evaluator);
}

test('prefix credit of a 200-message episode: one distinct value per message from its 201 prefix values', async () => {
  const result = await messageCredit(values(), 'prefix');
  const perMessage = result.rows.filter((r) => r.messageSeq !== null);
  assert.equal(perMessage.length, messages);
  // V(h_k) − V(h_{k−1}) = w_k, and the answer also completes the plan's bonus.
  perMessage.forEach((row, seq) =>
    assert.ok(Math.abs(row.value - ((seq % 7) / 1000 + (seq === messages - 1 ? 0.3 : 0))) < 1e-12, `#${seq}`),
  );
  assert.ok(perMessage.every((r) => r.status === 'exact' && (r.source ?? '').split('+').includes('replayed')));
  const total = perMessage.reduce((s, r) => s + r.value, 0);
  assert.ok(Math.abs(total - messageValue(full)) < 1e-9);
});

test('owen on a 200-message episode: Monte-Carlo estimates with intervals that conserve the logged reward', async () => {
  const result = await messageCredit(values(), 'owen', defaultMonteCarlo);
  const perMessage = result.rows.filter((r) => r.messageSeq !== null);
  assert.equal(perMessage.length, messages);
  assert.ok(perMessage.every((r) => r.status === 'estimated' && (r.source ?? '').split('+').includes('estimated')));
  assert.ok(perMessage.every((r) => r.n !== null && r.n > 0 && r.n <= defaultMonteCarlo.maxPermutations));
  assert.ok(
    perMessage.every((r) => r.ciLow !== null && r.ciHigh !== null && r.ciLow <= r.value && r.value <= r.ciHigh),
  );
  // Additive messages are exactly their weight; the plan and the answer share the bonus, each 0.3 / 2.
  for (const row of perMessage) {
    const seq = row.messageSeq ?? -1;
    const truth = (seq % 7) / 1000 + (seq === 0 || seq === messages - 1 ? 0.15 : 0);
    assert.ok(row.ciLow! - 1e-12 <= truth && truth <= row.ciHigh! + 1e-12, `#${seq}: ${truth} outside its interval`);
  }
  assert.ok(Math.abs(perMessage.reduce((s, r) => s + r.value, 0) - messageValue(full)) < 1e-9);
  const agentRows = result.rows.filter((r) => r.messageSeq === null);
  assert.equal(agentRows.length, agents.length);
  // Each agent's row is the sum of its messages, with the interval of its own total over the same orders
  // (here narrow: pairs of agents interact only, and an antithetic pair of agent orders averages that out).
  agentRows.forEach((row, a) => {
    const sum = perMessage.filter((r) => (r.messageSeq ?? -1) % agents.length === a).reduce((s, r) => s + r.value, 0);
    assert.ok(Math.abs(row.value - sum) < 1e-12, agents[a]);
    assert.ok(row.ciLow !== null && row.ciHigh !== null, agents[a]);
    assert.ok(row.ciLow - 1e-12 <= row.value && row.value <= row.ciHigh + 1e-12, agents[a]);
    assert.equal(row.n, perMessage[0]?.n);
  });
});

test('owen on a long episode: the same seed gives the same estimate, another seed another one', async () => {
  const first = await messageCredit(values(), 'owen', defaultMonteCarlo);
  const again = await messageCredit(values(), 'owen', defaultMonteCarlo);
  assert.deepEqual(first.rows, again.rows);
  const other = await messageCredit(values(), 'owen', { ...defaultMonteCarlo, seed: 2 });
  assert.notDeepEqual(
    other.rows.map((r) => r.value),
    first.rows.map((r) => r.value),
  );
});
