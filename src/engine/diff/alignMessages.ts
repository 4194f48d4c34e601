// The alignment of two episodes' messages for the episode diff (docs/architecture.md §3.7). Pure.

/** One line of the diff: a message of A paired with one of B, or a message only one side has. */
export type AlignedRow =
  | { readonly kind: 'paired'; readonly agent: string; readonly turn: number; readonly a: number; readonly b: number }
  | { readonly kind: 'deleted'; readonly agent: string; readonly turn: number; readonly a: number }
  | { readonly kind: 'inserted'; readonly agent: string; readonly turn: number; readonly b: number };

/**
 * Aligns the messages of episode A (`a`, each message's author in seq order) with those of B: the
 * k-th message of an agent in A is paired with the k-th message of the same agent in B (its turn
 * index within the agent, counted from 0), whatever the other agents did in between. A message
 * without a partner is `deleted` (only in A) or `inserted` (only in B).
 *
 * Rows follow A's order; a B-only message comes right after the row of the B message before it
 * (at the top when none is before it), so both sides read in their own order wherever the agents
 * took their turns in the same order. Agents are compared by exact name. Empty inputs give the
 * other side's messages, all inserted or deleted; the result has one row per pair or lone message.
 */
export function alignMessages(a: readonly string[], b: readonly string[]): AlignedRow[] {
  const partnerOfA = pairByTurn(a, b);
  const rowOfB = new Map<number, number>(); // a B seq → the position of its pair row among A's rows
  const aRows: AlignedRow[] = [];
  const turnsA = turnIndices(a);
  for (const [seq, agent] of a.entries()) {
    const turn = turnsA[seq] ?? 0;
    const partner = partnerOfA.get(seq);
    if (partner === undefined) aRows.push({ kind: 'deleted', agent, turn, a: seq });
    else {
      rowOfB.set(partner, aRows.length);
      aRows.push({ kind: 'paired', agent, turn, a: seq, b: partner });
    }
  }
  // Lone B messages, each after the row of the nearest earlier paired B message (-1: the top).
  const after = new Map<number, AlignedRow[]>();
  const turnsB = turnIndices(b);
  let anchor = -1;
  for (const [seq, agent] of b.entries()) {
    const row = rowOfB.get(seq);
    if (row !== undefined) anchor = row;
    else pushTo(after, anchor, { kind: 'inserted', agent, turn: turnsB[seq] ?? 0, b: seq });
  }
  const rows: AlignedRow[] = [...(after.get(-1) ?? [])];
  for (const [i, row] of aRows.entries()) rows.push(row, ...(after.get(i) ?? []));
  return rows;
}

/** Each message's turn index within its agent: 0 for the agent's first message, 1 for its second, … */
export function turnIndices(authors: readonly string[]): number[] {
  const seen = new Map<string, number>();
  return authors.map((agent) => {
    const turn = seen.get(agent) ?? 0;
    seen.set(agent, turn + 1);
    return turn;
  });
}

/** The B partner of each A message with one: the same agent's message of the same turn index. */
function pairByTurn(a: readonly string[], b: readonly string[]): Map<number, number> {
  const bByKey = new Map<string, number>();
  const turnsB = turnIndices(b);
  for (const [seq, agent] of b.entries()) bByKey.set(key(agent, turnsB[seq] ?? 0), seq);
  const bySeqA = new Map<number, number>();
  const turnsA = turnIndices(a);
  for (const [seq, agent] of a.entries()) {
    const partner = bByKey.get(key(agent, turnsA[seq] ?? 0));
    if (partner !== undefined) bySeqA.set(seq, partner);
  }
  return bySeqA;
}

function key(agent: string, turn: number): string {
  return `${String(turn)}\u0000${agent}`;
}

function pushTo<K, V>(map: Map<K, V[]>, at: K, value: V): void {
  const list = map.get(at);
  if (list) list.push(value);
  else map.set(at, [value]);
}
