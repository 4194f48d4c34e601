import type { ChatClientStats } from '../../core/chat';
import type { CreditEpisode } from '../../core/creditInput';
import type { ReplayCost } from '../../credit/replay/replayCost';

/** What to evaluate: the episode with only the agents (or messages) of each mask present. */
export interface EvaluationRequest {
  readonly episode: CreditEpisode;
  readonly kind: 'agents' | 'messages';
  /** Bit i = agent i (kind `agents`) or message i (kind `messages`) present. */
  readonly masks: readonly bigint[];
}

/** The evaluator's answer to one request. */
export interface EvaluationResult {
  /** A reward per requested mask. */
  readonly rewards: ReadonlyMap<bigint, number>;
  /** True when downstream agents were re-generated after each intervention (a replay). */
  readonly replayed: boolean;
}

/**
 * Turns (episode, coalition or intervention) into a reward (credit-methods.md §6.2). Results are
 * cached by the caller under `fingerprint`, so a fingerprint must change whenever results could.
 */
export interface Evaluator {
  readonly fingerprint: string;
  /** A short human name for messages: `the built-in final-answer checker`, `the command "…"`. */
  readonly label: string;
  /**
   * Why this evaluator cannot score `episode` (a ground truth it does not understand, no ground
   * truth, a format whose rewards come from elsewhere); undefined when it can.
   */
  cannotScore?(episode: CreditEpisode): string | undefined;
  /**
   * True when every value re-generates what follows the intervention (a replay): a message mask
   * is then the value of continuing from a prefix, which a logged agent coalition does not answer.
   */
  readonly replays?: boolean;
  /** The intervention its counterfactuals make (`remove` unless said otherwise; a replay may use `default`). */
  readonly intervention?: string;
  /**
   * Resolves with a reward per mask; rejects with an Error naming what went wrong for this episode
   * (an {@link EvaluationError} when some masks were scored before the failure).
   */
  evaluate(request: EvaluationRequest): Promise<EvaluationResult>;
  /** What `evaluate(request)` would cost, without calling anything (evaluators that call a model server). */
  estimate?(request: EvaluationRequest): Promise<ReplayCost>;
  /** Calls, tokens, retries and time spent so far (evaluators that call a model server). */
  usage?(): ChatClientStats;
  close(): Promise<void>;
}

/** An evaluation that failed after scoring some of its masks: those are kept, so a rerun need not repeat them. */
export class EvaluationError extends Error {
  constructor(
    message: string,
    readonly partial: ReadonlyMap<bigint, number>,
    readonly replayed: boolean,
  ) {
    super(message);
  }
}

/** The members (roster or message indices) present in a mask, in increasing order. */
export function maskMembers(mask: bigint): number[] {
  // The binary digits once, not a shift per bit: linear in the mask's length, not quadratic.
  const members: number[] = [];
  const digits = mask.toString(2);
  for (let i = 0, at = digits.length - 1; at >= 0; i++, at--) if (digits.charCodeAt(at) === 49) members.push(i);
  return members;
}

/** The cache key of one intervention: kind and the sorted ids (agent ids or message seqs) present. */
export function interventionKey(episode: CreditEpisode, kind: 'agents' | 'messages', mask: bigint): string {
  const ids = maskMembers(mask).map((i) => (kind === 'agents' ? (episode.agents[i]?.agentId ?? -1) : i));
  return `${kind}:${ids.sort((a, b) => a - b).join(',')}`;
}
