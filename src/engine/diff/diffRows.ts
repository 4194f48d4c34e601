import { weakerStatus } from '../../core/provenance';
import { asStatus } from '../views/creditView';
import type { AgentCreditView } from '../views/viewTypes';
import type { AgentTotalDiff, DiffRowView, EpisodeDiffData } from '../../protocol/episodeDiffPanel';
import type { AlignedRow } from './alignMessages';

// The numbers of the episode diff, from each side's stored credit: never a value for a side that
// has none (docs/credit-provenance.md). Pure.

/** B − A when both are finite values; null otherwise. */
export function difference(a: number | null | undefined, b: number | null | undefined): number | null {
  return a === null || a === undefined || b === null || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)
    ? null
    : b - a;
}

/** What one side gives the rows: each message's credit (index = seq) and text (null: not read). */
export interface RowSide {
  readonly credit: readonly (number | null)[];
  readonly texts: readonly string[] | null;
}

/**
 * The aligned rows with each side's message credit and their difference; a paired row's text is
 * changed when the two texts (as read) differ, null when a side's text is not read.
 */
export function diffRows(aligned: readonly AlignedRow[], a: RowSide, b: RowSide): DiffRowView[] {
  return aligned.map((row) => {
    const seqA = row.kind === 'inserted' ? null : row.a;
    const seqB = row.kind === 'deleted' ? null : row.b;
    const creditA = seqA === null ? null : (a.credit[seqA] ?? null);
    const creditB = seqB === null ? null : (b.credit[seqB] ?? null);
    const textA = seqA === null ? undefined : a.texts?.[seqA];
    const textB = seqB === null ? undefined : b.texts?.[seqB];
    return {
      kind: row.kind,
      agent: row.agent,
      turn: row.turn,
      a: seqA,
      b: seqB,
      creditA,
      creditB,
      delta: difference(creditA, creditB),
      textChanged: row.kind !== 'paired' || textA === undefined || textB === undefined ? null : textA !== textB,
    };
  });
}

/** Rows by kind, and the paired rows whose texts differ. */
export function rowCounts(rows: readonly DiffRowView[]): EpisodeDiffData['counts'] {
  let paired = 0;
  let changed = 0;
  let deleted = 0;
  let inserted = 0;
  for (const row of rows) {
    if (row.kind === 'paired') paired++;
    else if (row.kind === 'deleted') deleted++;
    else inserted++;
    if (row.textChanged === true) changed++;
  }
  return { paired, changed, deleted, inserted };
}

/**
 * Each agent's credit total on both sides (A's roster order, then agents only B has) and the
 * difference, whose status is the weaker of the two values' (exact only when both are exact).
 */
export function agentTotals(a: readonly AgentCreditView[], b: readonly AgentCreditView[]): AgentTotalDiff[] {
  const inB = new Map(b.map((agent) => [agent.agent, agent]));
  const inA = new Map(a.map((agent) => [agent.agent, agent]));
  const names = [...inA.keys(), ...[...inB.keys()].filter((name) => !inA.has(name))];
  return names.map((agent) => {
    const left = inA.get(agent);
    const right = inB.get(agent);
    const delta = difference(left?.value, right?.value);
    return {
      agent,
      a: left?.value ?? null,
      b: right?.value ?? null,
      delta,
      status:
        delta === null ? null : weakerStatus(asStatus(left?.status ?? 'exact'), asStatus(right?.status ?? 'exact')),
      inA: left !== undefined,
      inB: right !== undefined,
    };
  });
}
