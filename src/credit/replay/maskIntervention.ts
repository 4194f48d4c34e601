import { err, ok, type Result } from '../../core/result';
import type { ReplayIntervention, ReplayMode } from './replayTypes';

/**
 * The replay of an evaluator mask of kind `agents` (src/engine/evaluators/evaluator.ts): bit i =
 * `agents[i]` present, so the agents whose bit is clear are removed. Fails for a negative mask or
 * one with bits beyond the roster.
 */
export function agentsIntervention(
  agents: readonly string[],
  presentMask: bigint,
  mode: ReplayMode,
): Result<ReplayIntervention> {
  if (presentMask < 0n || presentMask >> BigInt(agents.length) !== 0n)
    return err(`agent mask ${presentMask} is not a set of this episode's ${agents.length} agents`);
  return ok({ kind: 'agents', removed: agents.filter((_, i) => ((presentMask >> BigInt(i)) & 1n) === 0n), mode });
}

/**
 * The replay of an evaluator mask of kind `messages`: a replay answers only prefixes, messages
 * `0 .. k−1` present (`2^k − 1`) and every later one regenerated, as prefix credit asks. Fails for
 * any other mask, or a prefix longer than the episode's `messageCount` messages.
 */
export function prefixIntervention(presentMask: bigint, messageCount: number): Result<ReplayIntervention> {
  const keep = prefixLength(presentMask);
  if (keep === undefined)
    return err(`a replay keeps a prefix of the messages (messages 0..k−1); mask ${presentMask} is not one`);
  if (keep > messageCount)
    return err(`mask ${presentMask} keeps ${keep} messages, but the episode has ${messageCount}`);
  return ok({ kind: 'messages', keep });
}

/** k when `mask` is `2^k − 1` (messages 0 .. k−1), else undefined. */
export function prefixLength(mask: bigint): number | undefined {
  if (mask < 0n || ((mask + 1n) & mask) !== 0n) return undefined;
  return mask === 0n ? 0 : mask.toString(2).length;
}
