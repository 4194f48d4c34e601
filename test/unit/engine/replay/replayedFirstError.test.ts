import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CreditEpisode } from '../../../../src/core/creditInput';
import type { CoalitionValues } from '../../../../src/engine/credit/coalitionValues';
import { messageCredit } from '../../../../src/engine/credit/messageCredit';
import type { Evaluator } from '../../../../src/engine/evaluators/evaluator';
import { evaluatedMessageValues } from '../messageValues';

/** A failed three-message episode of agents A, B, A (nothing logged but its reward 0). */
const episode: CreditEpisode = {
  episodeId: 1,
  externalId: 'e1',
  runId: 1,
  step: 1,
  group: null,
  reward: 0,
  groundTruth: '3',
  agents: [
    { agentId: 1, name: 'A' },
    { agentId: 2, name: 'B' },
  ],
  uri: 'a.jsonl',
  offset: 0,
  length: 0,
  line: 1,
  loggedCoalitions: new Map([[0b11n, 0]]),
  loggedCounterfactuals: [],
  messageAuthors: [0, 1, 0],
  labels: [],
};

/** An evaluator giving the prefix values V(h_0..h_2) = 1, 0, 1 (V(h_3) is the logged 0). */
function prefixEvaluator(replayed: boolean): Evaluator {
  const values = [1, 0, 1];
  return {
    fingerprint: 'stub',
    label: 'the stub',
    ...(replayed ? { replays: true } : {}),
    evaluate: (request) =>
      Promise.resolve({
        // The factual episode (every agent) scores its logged 0; a prefix mask 2^k − 1 scores V(h_k).
        rewards: new Map(
          request.masks.map((m) => [
            m,
            request.kind === 'agents' ? 0 : (values[m.toString(2).replace(/^0$/, '').length] ?? NaN),
          ]),
        ),
        replayed,
      }),
    close: () => Promise.resolve(),
  };
}

function values(evaluator: Evaluator): CoalitionValues {
  return evaluatedMessageValues(episode, evaluator);
}

test('replayed prefix values locate the point of no return; checked ones keep the first drop of δ', async () => {
  // Message 0 drops the value to 0, message 1 repairs it, message 2 loses the episode for good.
  const replayed = await messageCredit(values(prefixEvaluator(true)), 'prefix');
  assert.deepEqual(replayed.firstError, { index: 2, harmful: [0, 2], repairs: [1] });
  assert.ok(replayed.rows.every((r) => r.status === 'exact'));
  const checked = await messageCredit(values(prefixEvaluator(false)), 'prefix');
  assert.equal(checked.firstError?.index, 0);
  assert.ok(checked.rows.some((r) => r.status === 'approximate'));
});
