import type { CreditEpisode } from '../../core/creditInput';

/** What to evaluate: the episode with only the agents (or messages) of each mask present. */
export interface EvaluationRequest {
  readonly episode: CreditEpisode;
  readonly kind: 'agents' | 'messages';
  readonly masks: readonly number[];
}

/**
 * Turns (episode, coalition or intervention) into a reward (credit-methods.md §6.2). Results are
 * cached by the caller under `fingerprint`, so a fingerprint must change whenever results could.
 */
export interface Evaluator {
  readonly fingerprint: string;
  /** True when downstream agents are re-generated after an intervention (a replayer). */
  readonly replays: boolean;
  /** Resolves with a reward per mask; rejects with an Error naming what went wrong for this episode. */
  evaluate(request: EvaluationRequest): Promise<Map<number, number>>;
  close(): Promise<void>;
}

/** The cache key of one intervention: kind and the sorted ids (agent ids or message seqs) present. */
export function interventionKey(episode: CreditEpisode, kind: 'agents' | 'messages', mask: number): string {
  const ids: number[] = [];
  for (let i = 0; mask >> i !== 0 && i < 31; i++) {
    if ((mask >> i) & 1) ids.push(kind === 'agents' ? (episode.agents[i]?.agentId ?? -1) : i);
  }
  return `${kind}:${ids.sort((a, b) => a - b).join(',')}`;
}
