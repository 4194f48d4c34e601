import { contentFreeTokens } from './contentFree';
import { NgramVocabulary, tokenizedCopy, type TokenizedText } from './textOverlap';
import { wordTokens } from './wordTokens';

/** One message of an episode transcript, in order: the 0-based agent index and the text. */
export interface ActivityMessage {
  readonly agent: number;
  readonly content: string;
}

/** One agent's behaviour in one episode (credit-methods.md §5.4; product-targets.md T10). */
export interface AgentActivity {
  /** Messages the agent sent. */
  readonly messages: number;
  /** Word tokens over its messages ({@link wordTokens}); the numerator of the T10 token share. */
  readonly tokens: number;
  /** Its messages that are content-free ({@link isContentFree}). */
  readonly emptyMessages: number;
  /** Its messages that copy the most recent message of another agent ({@link isCopy}). */
  readonly copiedMessages: number;
  /** Its message is the first in the episode whose text contains the final answer as whole tokens. */
  readonly finalAnswerFirst: boolean;
}

/** Thresholds of {@link episodeActivity}; the defaults are those of credit-methods.md §5.4. */
export interface ActivityOptions {
  /** Content-free when at most this many content tokens (default 5). */
  readonly minTokens?: number;
  /** Copy when ROUGE-L F1 or 5-gram containment reaches this (default 0.8). */
  readonly copyThreshold?: number;
}

/**
 * Per-agent behavioural counts of one episode (credit-methods.md §5.4 emptiness, copying and
 * output share), indexed by agent `0 … nAgents − 1`; agents without messages get zeros.
 *
 * * copying: a message copies when it {@link isCopy | copies} the most recent earlier message of a
 *   *different* agent (an agent repeating itself is not copying; the first message has no partner);
 * * finalAnswerFirst: true for the agent of the first message whose word tokens contain the tokens
 *   of `finalAnswer` as a contiguous run ("72" matches "48 + 24 = 72", not "720"). At most one agent
 *   is true; none when `finalAnswer` is absent, has no word tokens, or never appears.
 *
 * `nAgents` must be a non-negative integer and a message's `agent` an integer in [0, nAgents) (a
 * programmer error throws RangeError).
 * Cost: linear in the text, plus one bounded LCS per message (see {@link isCopy}).
 */
export function episodeActivity(
  messages: readonly ActivityMessage[],
  nAgents: number,
  finalAnswer?: string,
  options: ActivityOptions = {},
): AgentActivity[] {
  const { minTokens = 5, copyThreshold = 0.8 } = options;
  if (!Number.isSafeInteger(nAgents) || nAgents < 0)
    throw new RangeError(`nAgents must be a non-negative integer, got ${nAgents}`);
  const counts = Array.from({ length: nAgents }, () => ({
    messages: 0,
    tokens: 0,
    emptyMessages: 0,
    copiedMessages: 0,
    finalAnswerFirst: false,
  }));
  const answer = finalAnswer === undefined ? [] : wordTokens(finalAnswer);
  let answerSeen = answer.length === 0;
  // Each message is tokenised once: its tokens serve the counts, emptiness and later copy checks.
  const latest = new Map<number, TokenizedText>();
  const vocabulary = new NgramVocabulary();
  for (const { agent, content } of messages) {
    const count = counts[agent];
    if (count === undefined || !Number.isInteger(agent))
      throw new RangeError(`message agent ${agent} is outside [0, ${nAgents})`);
    const text = vocabulary.ofTokens(wordTokens(content));
    const tokens = text.tokens;
    count.messages++;
    count.tokens += tokens.length;
    if (contentFreeTokens(content, tokens, minTokens)) count.emptyMessages++;
    const partner = latestOfOthers(latest, agent);
    if (partner !== undefined && tokenizedCopy(text, partner, copyThreshold)) count.copiedMessages++;
    if (!answerSeen && containsRun(tokens, answer)) {
      count.finalAnswerFirst = true;
      answerSeen = true;
    }
    latest.delete(agent);
    latest.set(agent, text);
  }
  return counts;
}

/** The most recent message of an agent other than `agent` (the map keeps insertion = time order). */
function latestOfOthers(latest: ReadonlyMap<number, TokenizedText>, agent: number): TokenizedText | undefined {
  let found: TokenizedText | undefined;
  for (const [other, text] of latest) if (other !== agent) found = text;
  return found;
}

/** Whether `needle` (non-empty) occurs in `haystack` as a contiguous run of tokens. */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((token, k) => haystack[start + k] === token)) return true;
  }
  return false;
}
