import type { RosterAgent, StoredMessageIndex } from '../../store/episodeViewRepository';
import type { TimelineView } from './viewTypes';

/**
 * The bits of `TimelineView.flags`. Equal to the protocol's `timelineFlags` (a runtime constant,
 * which engine may not import; a test checks it).
 */
export const timelineFlagBits = { tokenDetail: 1, toolCall: 2, toolResult: 4 } as const;

/**
 * The swimlane timeline of an episode (docs/architecture.md §3.5): each message's author as
 * its position in the roster (the order the panel lists the agents in), its token count and its
 * flags, as parallel arrays by seq. An author outside the roster is -1.
 */
export function timelineView(index: StoredMessageIndex, roster: readonly RosterAgent[]): TimelineView {
  const positionOf = new Map(roster.map((agent, position) => [agent.ordinal, position]));
  const authors = index.ordinals.map((ordinal) => positionOf.get(ordinal) ?? -1);
  const flags = index.ordinals.map((_, seq) => messageFlags(index, seq));
  return { authors, tokens: index.tokens, flags };
}

function messageFlags(index: StoredMessageIndex, seq: number): number {
  const channel = index.channels[seq];
  return (
    (index.hasTokens[seq] ? timelineFlagBits.tokenDetail : 0) |
    (channel === 'tool_call' ? timelineFlagBits.toolCall : 0) |
    (channel === 'tool_result' ? timelineFlagBits.toolResult : 0)
  );
}
