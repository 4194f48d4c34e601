import type { CreditEpisode } from '../../../src/core/creditInput';
import { CoalitionValues } from '../../../src/engine/credit/coalitionValues';
import type { Evaluator } from '../../../src/engine/evaluators/evaluator';

/** Message-subset values of `episode` from `evaluator` alone: no cache, a trusted evaluator, a pipeline. */
export function evaluatedMessageValues(episode: CreditEpisode, evaluator: Evaluator): CoalitionValues {
  return new CoalitionValues(episode, 'messages', {
    loadCache: () => new Map(),
    evaluator,
    counters: { logged: 0, cached: 0, evaluated: 0 },
    fresh: [],
    useLogged: true,
    sequential: true,
    trust: () => Promise.resolve(undefined),
  });
}
