import { plural } from '../../core/plural';
import type { InfluenceEdgeView } from '../../protocol/influence';

/**
 * Mean influence per (from, to, kind) over episodes (credit-methods.md §3.17): each edge's value is
 * averaged over the episodes that have that edge, and says how many they are. An edge is exact only
 * when it is exact in every one of them. Message connections are summed.
 */
export class InfluenceAggregate {
  private readonly sums = new Map<
    string,
    { edge: InfluenceEdgeView; sum: number; n: number; exact: boolean; connections: number; largest: number }
  >();

  /** Adds the edges of one episode. */
  add(edges: readonly InfluenceEdgeView[]): void {
    for (const e of edges) {
      if (!Number.isFinite(e.value)) continue;
      const key = `${e.kind}\u0000${e.from}\u0000${e.to ?? ''}\u0000${e.message ?? ''}`;
      const acc = this.sums.get(key);
      if (acc) {
        acc.sum += e.value;
        acc.n++;
        acc.exact &&= e.exact;
        acc.connections += e.connections;
        acc.largest = Math.max(acc.largest, largestOf(e));
      } else
        this.sums.set(key, {
          edge: e,
          sum: e.value,
          n: 1,
          exact: e.exact,
          connections: e.connections,
          largest: largestOf(e),
        });
    }
  }

  /** The mean edges, in order of first appearance. */
  edges(): InfluenceEdgeView[] {
    return [...this.sums.values()].map(({ edge, sum, n, exact, connections, largest }) => ({
      ...(edge.message !== undefined ? { message: edge.message } : {}),
      from: edge.from,
      to: edge.to,
      kind: edge.kind,
      value: sum / n,
      exact,
      provenance: `mean over ${plural(n, 'episode')} of ${meanOf(edge)}`,
      connections,
      episodes: n,
      largest,
    }));
  }
}

function meanOf(edge: InfluenceEdgeView): string {
  return edge.kind === 'logged' ? 'the summed logged weights' : edge.provenance;
}

/** The largest |influence| behind an edge: a mean of +1 and −1 is 0, yet both episodes moved something. */
export function largestOf(edge: InfluenceEdgeView): number {
  return edge.largest ?? Math.abs(edge.value);
}
