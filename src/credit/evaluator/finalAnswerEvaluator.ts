import { aggregateAnswers, type AggregationRule } from './aggregateAnswers';
import { extractAnswer, type ExtractionMode } from './extractAnswer';
import { normaliseAnswer, resolveNormalisation, type AnswerNormalisation } from './normaliseAnswer';

/** What the built-in evaluator needs from an episode. Agents are roster indices (bit i of a mask). */
export interface EvaluatorEpisode {
  readonly agents: readonly string[];
  /** Messages in order; `agent` indexes `agents` (a negative index marks an undeclared speaker, never present). */
  readonly messages: readonly { readonly agent: number; readonly content: string }[];
  readonly groundTruth: string | undefined;
  /** The routed expert's index, for `aggregation: 'selected'`. */
  readonly selected?: number;
}

/** How answers combine: `vote` breaks ties toward the earliest agent, `vote-ties-none` gives no answer. */
export type FinalAnswerAggregation = 'last' | 'vote' | 'vote-ties-none' | 'selected';

/** Options of the built-in `final-answer` evaluator (run.json: {@link parseFinalAnswerOptions}). */
export interface FinalAnswerOptions extends AnswerNormalisation {
  readonly extraction: ExtractionMode;
  readonly aggregation: FinalAnswerAggregation;
}

/** Bumped whenever a change to extraction, normalisation or aggregation can change a score. */
const evaluatorVersion = 1;

/**
 * The coalition value `v(S)` of the built-in final-answer evaluator (credit-methods.md §6.2, E4,
 * E15): 1 if the team answer of the agents in `presentMask` (bit i = agent i present) equals the
 * normalised ground truth, else 0. Messages of absent agents are removed and nothing is replayed
 * (the `⊥` default): exact for the last agent of a pipeline and for aggregation topologies whose
 * agents do not read each other; approximate (no replay) for upstream agents of a pipeline.
 *
 * Each present message's answer is extracted with `options.extraction`, then combined with
 * `options.aggregation`. The ground truth is read with `gsm8k` extraction when it contains `####`
 * (a full GSM8K solution) or `\boxed{…}`, else normalised as a whole.
 *
 * `v(∅) = 0`. A negative or fractional mask is a programmer error (RangeError). NaN (unscorable) for a non-empty coalition when the ground truth is missing or empty,
 * or when `aggregation` is `selected` and the episode records no selected expert.
 */
export function finalAnswerReward(
  episode: EvaluatorEpisode,
  presentMask: number | bigint,
  options: FinalAnswerOptions,
): number {
  if (typeof presentMask === 'bigint' ? presentMask < 0n : !Number.isSafeInteger(presentMask) || presentMask < 0) {
    throw new RangeError(`presentMask must be a non-negative integer, got ${presentMask}`);
  }
  if (!hasPresentAgent(episode.agents.length, presentMask)) return 0;
  const gold = goldAnswer(episode.groundTruth, options);
  if (gold === undefined) return NaN;
  if (options.aggregation === 'selected' && episode.selected === undefined) return NaN;
  return coalitionAnswer(episode, presentMask, options) === gold ? 1 : 0;
}

/**
 * The team's normalised final answer when only the agents in `presentMask` act (the answer that
 * {@link finalAnswerReward} compares with the gold), or undefined when there is none.
 */
export function coalitionAnswer(
  episode: EvaluatorEpisode,
  presentMask: number | bigint,
  options: FinalAnswerOptions,
): string | undefined {
  const answers = episode.messages
    .filter((m) => isPresent(presentMask, m.agent))
    .map((m) => ({ agent: m.agent, answer: extractAnswer(m.content, options.extraction, options) }));
  return aggregateAnswers(answers, aggregationRule(options.aggregation, episode.selected));
}

/**
 * A stable string naming the evaluator, its version and every option with defaults applied, for
 * caching evaluations: equal fingerprints mean equal scores for every episode and mask. Example:
 * `final-answer@1 extraction=gsm8k aggregation=last stripThousands=1 stripCurrency=1
 * stripTrailingZeros=1 foldCase=0 foldWhitespace=1` (on one line).
 */
export function finalAnswerFingerprint(options: FinalAnswerOptions): string {
  const flags = Object.entries(resolveNormalisation(options)).map(([name, on]) => `${name}=${on ? 1 : 0}`);
  return [
    `final-answer@${evaluatorVersion}`,
    `extraction=${options.extraction}`,
    `aggregation=${options.aggregation}`,
    ...flags,
  ].join(' ');
}

function goldAnswer(groundTruth: string | undefined, options: FinalAnswerOptions): string | undefined {
  if (groundTruth === undefined) return undefined;
  if (groundTruth.includes('####') || groundTruth.includes('\\boxed'))
    return extractAnswer(groundTruth, 'gsm8k', options);
  return normaliseAnswer(groundTruth, options);
}

function aggregationRule(aggregation: FinalAnswerAggregation, selected: number | undefined): AggregationRule {
  switch (aggregation) {
    case 'last':
      return { kind: 'last' };
    case 'vote':
      return { kind: 'vote', ties: 'earliest' };
    case 'vote-ties-none':
      return { kind: 'vote', ties: 'none' };
    case 'selected':
      return { kind: 'selected', agent: selected ?? -1 };
  }
}

// Arithmetic rather than `>>` on numbers (up to 53 agents); bigint masks for any team size.
function isPresent(mask: number | bigint, agent: number): boolean {
  if (agent < 0) return false;
  return typeof mask === 'bigint' ? ((mask >> BigInt(agent)) & 1n) === 1n : Math.floor(mask / 2 ** agent) % 2 === 1;
}

function hasPresentAgent(agents: number, mask: number | bigint): boolean {
  for (let i = 0; i < agents; i++) if (isPresent(mask, i)) return true;
  return false;
}
