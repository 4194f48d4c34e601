import type { CreditEpisode } from '../../core/creditInput';
import type { Episode } from '../../core/episode';
import {
  finalAnswerFingerprint,
  finalAnswerReward,
  type EvaluatorEpisode,
  type FinalAnswerOptions,
} from '../../credit/evaluator/finalAnswerEvaluator';
import { finalAnswerCannotScore } from '../../credit/evaluator/finalAnswerScope';
import { readEpisode } from '../../ingest/readEpisode';
import type { EvaluationRequest, EvaluationResult, Evaluator } from './evaluator';

/**
 * The built-in final-answer checker: re-reads the episode from its trace file, drops the messages
 * of absent agents (or messages), and scores the team's aggregated answer against the ground truth.
 * It re-generates nothing (its values are `checked`, not `replayed`), so leave-one-out of an agent
 * whose output later agents read is approximate. It declines episodes it cannot score
 * ({@link finalAnswerCannotScore}).
 */
export function builtinEvaluator(root: string, options: FinalAnswerOptions): Evaluator {
  return {
    fingerprint: finalAnswerFingerprint(options),
    label: 'the built-in final-answer checker',
    cannotScore: (episode) => finalAnswerCannotScore(episode.groundTruth, episode.format),
    evaluate: (request) => evaluateEpisode(root, options, request),
    close: () => Promise.resolve(),
  };
}

async function evaluateEpisode(
  root: string,
  options: FinalAnswerOptions,
  request: EvaluationRequest,
): Promise<EvaluationResult> {
  const read = await readEpisode(root, request.episode);
  if (!read.ok) throw new Error(read.error);
  const base = evaluatorEpisode(request.episode, read.value);
  const all = (1n << BigInt(request.episode.agents.length)) - 1n;
  const rewards = new Map<bigint, number>();
  for (const mask of request.masks) {
    if (request.kind === 'agents') rewards.set(mask, finalAnswerReward(base, mask, options));
    else
      rewards.set(
        mask,
        finalAnswerReward(
          { ...base, messages: base.messages.filter((_, seq) => ((mask >> BigInt(seq)) & 1n) === 1n) },
          all,
          options,
        ),
      );
  }
  return { rewards, replayed: false };
}

/** The episode as the checker sees it: speakers as roster indices, ground truth from the index. */
export function evaluatorEpisode(credit: CreditEpisode, episode: Episode): EvaluatorEpisode {
  const index = new Map(credit.agents.map((a, i) => [a.name, i]));
  const selected = credit.routing?.selected;
  return {
    agents: credit.agents.map((a) => a.name),
    messages: episode.messages.map((m) => ({ agent: index.get(m.agent) ?? -1, content: m.content })),
    groundTruth: credit.groundTruth ?? undefined,
    ...(selected !== undefined && selected >= 0 ? { selected } : {}),
  };
}
