import type { CreditEpisode } from '../../../../src/core/creditInput';
import type { CoalitionValues } from '../../../../src/engine/credit/coalitionValues';
import type { Evaluator } from '../../../../src/engine/evaluators/evaluator';
import { evaluatedMessageValues } from '../messageValues';

/** A failed three-message episode of agents A, B, A (nothing logged but its reward 0). */
export const prefixEpisode: CreditEpisode = {
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

/** An evaluator (replaying or not) giving the prefix values V(h_0..h_2) = 1, 0, 1 (V(h_3) is the logged 0). */
export function prefixEvaluator(replayed: boolean): Evaluator {
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

/** Message-subset values of {@link prefixEpisode} from `evaluator`. */
export function prefixStubValues(evaluator: Evaluator): CoalitionValues {
  return evaluatedMessageValues(prefixEpisode, evaluator);
}
