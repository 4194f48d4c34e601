import type { InfluenceEdgeView } from '../../protocol/influence';
import type { StoredInfluenceEdge } from '../../store/influenceRepository';

/**
 * The logged message connections of one episode (docs/trace-format.md §2.2) as agent-level edges
 * (credit-methods.md §3.17): the weights of every connection from a message of `from` to a message
 * of `to` are summed, and the edge says how many connections it holds. Logged weights are taken as
 * the producer wrote them (exact, in its units). Edges in order of first connection.
 */
export function loggedInfluence(stored: readonly StoredInfluenceEdge[]): InfluenceEdgeView[] {
  const byPair = new Map<string, { from: string; to: string | null; sum: number; n: number; seqs: string[] }>();
  for (const e of stored) {
    if (e.kind !== 'logged') continue;
    const key = `${e.fromAgent}\u0000${e.toAgent ?? ''}`;
    let pair = byPair.get(key);
    if (!pair) byPair.set(key, (pair = { from: e.fromAgent, to: e.toAgent, sum: 0, n: 0, seqs: [] }));
    pair.sum += e.weight;
    pair.n++;
    if (pair.seqs.length < 4) pair.seqs.push(`${seqText(e.fromSeq)}→${seqText(e.toSeq)}`);
  }
  return [...byPair.values()].map((p) => ({
    from: p.from,
    to: p.to,
    kind: 'logged',
    value: p.sum,
    exact: true,
    provenance: `logged weights of messages ${p.seqs.join(', ')}${p.n > p.seqs.length ? ', …' : ''}`,
    connections: p.n,
    episodes: 1,
  }));
}

function seqText(seq: number | null): string {
  return seq === null ? '?' : `#${String(seq + 1)}`;
}
