import { totalReplayCost, type ReplayCost } from '../../credit/replay/replayCost';
import type { EvaluationRequest, Evaluator } from '../evaluators/evaluator';

/**
 * An evaluator that scores nothing: it records each request a credit method makes (answering 0 for
 * every mask) so that the real evaluator can estimate what they would cost. An evaluator without
 * an estimate costs one call per mask. Without an evaluator there is nothing to record.
 */
export function recordingEvaluator(real: Evaluator | undefined): {
  readonly evaluator: Evaluator | undefined;
  cost(): Promise<ReplayCost>;
} {
  if (!real) return { evaluator: undefined, cost: () => Promise.resolve(totalReplayCost([])) };
  const requests: EvaluationRequest[] = [];
  const evaluator: Evaluator = {
    fingerprint: real.fingerprint,
    label: real.label,
    ...(real.replays !== undefined ? { replays: real.replays } : {}),
    ...(real.cannotScore ? { cannotScore: (episode) => real.cannotScore?.(episode) } : {}),
    evaluate: (request) => {
      requests.push(request);
      return Promise.resolve({ rewards: new Map(request.masks.map((mask) => [mask, 0])), replayed: true });
    },
    close: () => Promise.resolve(),
  };
  const estimate = (request: EvaluationRequest): Promise<ReplayCost> =>
    real.estimate?.(request) ?? Promise.resolve({ calls: request.masks.length, promptTokens: 0, completionTokens: 0 });
  return { evaluator, cost: async () => totalReplayCost(await Promise.all(requests.map(estimate))) };
}
