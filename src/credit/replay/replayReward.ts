import { finalAnswerReward, type EvaluatorEpisode, type FinalAnswerOptions } from '../evaluator/finalAnswerEvaluator';
import type { ConversationMessage } from './replayTypes';

/**
 * The replayed conversation as the final-answer checker reads an episode: `base` (the roster,
 * ground truth and routed expert of the logged episode) with its messages replaced by the
 * conversation's, speakers as roster indices (a speaker outside the roster is never present).
 */
export function replayedEvaluatorEpisode(
  base: EvaluatorEpisode,
  conversation: readonly ConversationMessage[],
): EvaluatorEpisode {
  const index = new Map(base.agents.map((name, i) => [name, i]));
  return { ...base, messages: conversation.map((m) => ({ agent: index.get(m.agent) ?? -1, content: m.content })) };
}

/**
 * The checker's reward of a replayed conversation: the final answer of every message in it (the
 * removed agents' messages are gone, their default actions count as their action), compared with
 * the ground truth by {@link finalAnswerReward} unchanged. `presentMask` 0 (every agent removed)
 * is `v(∅) = 0`, as for the checker without replay. NaN when the checker cannot score the episode.
 */
export function replayReward(
  base: EvaluatorEpisode,
  conversation: readonly ConversationMessage[],
  options: FinalAnswerOptions,
  presentMask?: bigint,
): number {
  if (presentMask === 0n) return 0;
  const everyone = (1n << BigInt(base.agents.length)) - 1n;
  return finalAnswerReward(replayedEvaluatorEpisode(base, conversation), everyone, options);
}
