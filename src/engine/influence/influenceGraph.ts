import type { InfluenceAgentView, InfluenceEdgeView, InfluenceGraphView } from '../../protocol/influence';
import { largestOf } from './influenceAggregate';
import { messageEdgesGap } from './replayedEdges';

/** |influence| at or below this is "no influence" (values are sums and means of doubles). */
export const influenceTolerance = 1e-9;

/**
 * Assembles the graph (credit-methods.md §3.17): the agents in roster order, each marked with
 * {@link noInfluenceOf}, the edges as given, and what the data could not give. `episodes` and
 * `skipped` say what the numbers rest on; `messageAuthors` (one episode's, by roster index) adds
 * the message-level gap when some agent speaks more than once and not every message was replayed.
 */
export function influenceGraph(
  agents: readonly string[],
  edges: readonly InfluenceEdgeView[],
  episodes: number,
  skipped = 0,
  messageAuthors: readonly number[] = [],
): InfluenceGraphView {
  return {
    agents: agents.map((name): InfluenceAgentView => ({ name, noInfluence: noInfluenceOf(name, edges) })),
    edges,
    episodes,
    skipped,
    missing: missingText(edges, episodes, messageGap(edges, messageAuthors)),
  };
}

/**
 * The message-level gap (§3.17): logged values are of agent coalitions, so the effect of one
 * message of an agent that speaks more than once is known only from a replay; null when no agent
 * speaks twice (a message is then its author's, whose outcome edge is drawn) or every message was replayed.
 */
function messageGap(edges: readonly InfluenceEdgeView[], authors: readonly number[]): string | null {
  if (new Set(authors).size === authors.length) return null;
  const replayed = new Set(edges.flatMap((e) => (e.message !== undefined ? [e.message] : []))).size;
  return messageEdgesGap(replayed, authors.length);
}

/**
 * True when every edge out of `agent` to another agent is 0 in every episode behind it (or there is
 * none) and its removal is known to change nothing (an exact 0 edge to the outcome); false when an
 * edge says otherwise; null when nothing exact says what its removal does (an approximate removal,
 * without re-generating the agents that read its output, cannot support "no influence").
 */
export function noInfluenceOf(agent: string, edges: readonly InfluenceEdgeView[]): boolean | null {
  const out = edges.filter((e) => e.from === agent && e.to !== agent);
  if (out.some((e) => !(largestOf(e) <= influenceTolerance))) return false;
  return out.some((e) => e.to === null && e.exact) ? true : null;
}

function missingText(
  edges: readonly InfluenceEdgeView[],
  episodes: number,
  messageLevel: string | null,
): string | null {
  if (episodes === 0) return 'No episodes to read.';
  const gaps: string[] = [];
  if (!edges.some((e) => e.kind === 'logged'))
    gaps.push('no logged attribution weights (messages[].connections and weights in the trace would give them)');
  if (!edges.some((e) => e.kind === 'counterfactual' && e.message === undefined))
    gaps.push(
      'no logged removal of an agent (counterfactuals or coalitions in the trace, or a replay, would give the effect on the outcome)',
    );
  if (messageLevel !== null) gaps.push(messageLevel);
  return gaps.length === 0 ? null : `This data has ${gaps.join('; and ')}.`;
}
