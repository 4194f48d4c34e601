import type { CreditEpisode } from '../../core/creditInput';
import type { Episode } from '../../core/episode';
import { finalAnswerFingerprint, finalAnswerReward, type EvaluatorEpisode, type FinalAnswerOptions } from '../../credit/evaluator/finalAnswerEvaluator';
import { readEpisode } from '../../ingest/readEpisode';
import type { EvaluationRequest, Evaluator } from './evaluator';

/**
 * The built-in final-answer evaluator: re-reads the episode from its trace file, drops the messages
 * of absent agents (or messages), and scores the team's aggregated answer against the ground truth.
 * It does not replay downstream agents, so leave-one-out of an upstream agent is approximate.
 */
export function builtinEvaluator(root: string, options: FinalAnswerOptions): Evaluator {
  return {
    fingerprint: finalAnswerFingerprint(options),
    replays: false,
    evaluate: (request) => evaluateEpisode(root, options, request),
    close: () => Promise.resolve(),
  };
}

async function evaluateEpisode(root: string, options: FinalAnswerOptions, request: EvaluationRequest): Promise<Map<number, number>> {
  const read = await readEpisode(root, request.episode);
  if (!read.ok) throw new Error(read.error);
  const base = evaluatorEpisode(request.episode, read.value);
  const all = (1 << request.episode.agents.length) - 1;
  const results = new Map<number, number>();
  for (const mask of request.masks) {
    if (request.kind === 'agents') results.set(mask, finalAnswerReward(base, mask, options));
    else results.set(mask, finalAnswerReward({ ...base, messages: base.messages.filter((_, seq) => (mask >> seq) & 1) }, all, options));
  }
  return results;
}

/** The episode as the evaluator sees it: speakers as roster indices, ground truth from the index. */
function evaluatorEpisode(credit: CreditEpisode, episode: Episode): EvaluatorEpisode {
  const index = new Map(credit.agents.map((a, i) => [a.name, i]));
  const selected = credit.routing?.selected;
  return {
    agents: credit.agents.map((a) => a.name),
    messages: episode.messages.map((m) => ({ agent: index.get(m.agent) ?? -1, content: m.content })),
    groundTruth: credit.groundTruth ?? undefined,
    ...(selected !== undefined && selected >= 0 ? { selected } : {}),
  };
}
