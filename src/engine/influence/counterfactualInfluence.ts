import type { CreditEpisode } from '../../core/creditInput';
import { interactionIndices } from '../../credit/game/interactionIndices';
import type { InfluenceEdgeView } from '../../protocol/influence';
import { CoalitionValues, type ValueInfo } from '../credit/coalitionValues';

/** Pairs are looked at only in teams up to this size (n² edges; larger teams keep their outcome edges). */
const maxPairAgents = 32;

/**
 * The counterfactual influence edges of one episode from its logged values only (credit-methods.md
 * §3.17): each agent's effect on the outcome, `v(N) − v(N∖{i})`, and each pair's interaction at the
 * full team, `v(N) − v(N∖{i}) − v(N∖{j}) + v(N∖{i,j})` (the S = N∖{i,j} term of §3.7's index,
 * computed by `interactionIndices` on that two-player game), drawn from the earlier speaker to the
 * later one. An edge is left out when a value it needs is not logged: nothing is evaluated here.
 * `sequential`: agents read earlier agents' messages (decides when a removal without replay is
 * exact, §3.1). Returns edges in roster order; empty for an episode without logged removals.
 */
export async function counterfactualInfluence(
  episode: CreditEpisode,
  sequential: boolean,
): Promise<InfluenceEdgeView[]> {
  const values = loggedValues(episode, sequential);
  const full = values.full;
  const v = async (mask: bigint): Promise<ValueInfo | undefined> => {
    if (!episode.loggedCoalitions.has(mask)) return undefined;
    await values.require([mask]);
    return values.info(mask);
  };
  const all = await v(full);
  if (all === undefined) return [];
  const names = episode.agents.map((a) => a.name);
  const bit = (i: number): bigint => 1n << BigInt(i);
  const edges: InfluenceEdgeView[] = [];
  const without: (ValueInfo | undefined)[] = [];
  for (let i = 0; i < names.length; i++) {
    const rest = await v(full & ~bit(i));
    without.push(rest);
    if (rest === undefined) continue;
    edges.push(
      edge(names[i] ?? '', null, all.value - rest.value, all.exact && rest.exact, `v(N) − v(N∖{${names[i] ?? ''}})`),
    );
  }
  if (names.length > maxPairAgents) return edges;
  const order = speakingOrder(episode);
  for (let a = 0; a < order.length; a++) {
    for (let b = a + 1; b < order.length; b++) {
      const i = order[a] as number;
      const j = order[b] as number;
      const [withoutI, withoutJ] = [without[i], without[j]];
      const neither = await v(full & ~bit(i) & ~bit(j));
      if (withoutI === undefined || withoutJ === undefined || neither === undefined) continue;
      // Player 0 = i, player 1 = j: values by mask {∅, {i}, {j}, {i, j}} with everyone else present.
      const table = { n: 2, values: Float64Array.of(neither.value, withoutJ.value, withoutI.value, all.value) };
      const interaction = interactionIndices(table)[1] ?? NaN;
      const exact = all.exact && withoutI.exact && withoutJ.exact && neither.exact;
      const [from, to] = [names[i] ?? '', names[j] ?? ''];
      edges.push(edge(from, to, interaction, exact, `v(N) − v(N∖{${from}}) − v(N∖{${to}}) + v(N∖{${from}, ${to}})`));
    }
  }
  return edges;
}

function edge(from: string, to: string | null, value: number, exact: boolean, formula: string): InfluenceEdgeView {
  return {
    from,
    to,
    kind: 'counterfactual',
    value,
    exact,
    provenance: `${formula}, logged`,
    connections: 0,
    episodes: 1,
  };
}

/** The episode's logged values with their exactness; nothing is cached or evaluated. */
function loggedValues(episode: CreditEpisode, sequential: boolean): CoalitionValues {
  return new CoalitionValues(episode, 'agents', {
    loadCache: () => new Map(),
    evaluator: undefined,
    counters: { logged: 0, cached: 0, evaluated: 0 },
    fresh: [],
    useLogged: true,
    sequential,
    trust: () => Promise.resolve(undefined),
  });
}

/** Roster indices by first message (agents that never speak last, in roster order). */
function speakingOrder(episode: CreditEpisode): number[] {
  const first = new Map<number, number>();
  episode.messageAuthors.forEach((author, seq) => {
    if (!first.has(author)) first.set(author, seq);
  });
  const at = (i: number): number => first.get(i) ?? Number.MAX_SAFE_INTEGER;
  return episode.agents.map((_, i) => i).sort((a, b) => at(a) - at(b) || a - b);
}
