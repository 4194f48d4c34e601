import type { InfluenceAgentView, InfluenceEdgeView, InfluenceGraphView } from '../../protocol/influence';
import { largestOf } from './influenceAggregate';

/** |influence| at or below this is "no influence" (values are sums and means of doubles). */
export const influenceTolerance = 1e-9;

/**
 * Assembles the graph (credit-methods.md §3.17): the agents in roster order, each marked with
 * {@link noInfluenceOf}, the edges as given, and what the data could not give. `episodes` and
 * `skipped` say what the numbers rest on.
 */
export function influenceGraph(
  agents: readonly string[],
  edges: readonly InfluenceEdgeView[],
  episodes: number,
  skipped = 0,
): InfluenceGraphView {
  return {
    agents: agents.map((name): InfluenceAgentView => ({ name, noInfluence: noInfluenceOf(name, edges) })),
    edges,
    episodes,
    skipped,
    missing: missingText(edges, episodes),
  };
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

function missingText(edges: readonly InfluenceEdgeView[], episodes: number): string | null {
  if (episodes === 0) return 'No episodes to read.';
  const gaps: string[] = [];
  if (!edges.some((e) => e.kind === 'logged'))
    gaps.push('no logged attribution weights (messages[].connections and weights in the trace would give them)');
  if (!edges.some((e) => e.kind === 'counterfactual'))
    gaps.push(
      'no logged removal of an agent (counterfactuals or coalitions in the trace, or a replay, would give the effect on the outcome)',
    );
  return gaps.length === 0 ? null : `This data has ${gaps.join('; and ')}.`;
}
