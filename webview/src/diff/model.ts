import type { DiffRowView, EpisodeDiffData } from '../../../src/protocol/episodeDiffPanel';
import { formatCredit, formatInt } from '../kit/format';

// What the diff view navigates and says about its rows. Pure: no DOM.

/** Why a row is a difference, in words (empty when it is not one). */
export function rowChanges(row: DiffRowView): string[] {
  const changes: string[] = [];
  if (row.kind === 'deleted') changes.push('only in A');
  if (row.kind === 'inserted') changes.push('only in B');
  if (row.textChanged === true) changes.push('text changed');
  if (row.delta !== null && row.delta !== 0) changes.push(`credit ${formatCredit(row.delta)}`);
  return changes;
}

/** The rows that differ (a message one side lacks, a changed text, a credit difference other than 0), in row order. */
export function differences(rows: readonly DiffRowView[]): number[] {
  const found: number[] = [];
  for (const [i, row] of rows.entries()) if (rowChanges(row).length > 0) found.push(i);
  return found;
}

/**
 * The difference after (`step` 1) or before (−1) row `from` (null: before the first row), wrapping
 * around at either end; null when there is none.
 */
export function nextDifference(found: readonly number[], from: number | null, step: 1 | -1): number | null {
  if (found.length === 0) return null;
  if (step === 1) return found.find((row) => from === null || row > from) ?? found[0] ?? null;
  const before = from === null ? [] : found.filter((row) => row < from);
  return before.at(-1) ?? found.at(-1) ?? null;
}

/** Why a row has no credit difference, for its hover; null when it has one. */
export function noDeltaReason(row: DiffRowView): string | null {
  if (row.delta !== null) return null;
  if (row.kind === 'deleted') return 'No difference: the message is only in A';
  if (row.kind === 'inserted') return 'No difference: the message is only in B';
  const missing = [row.creditA === null ? 'A' : null, row.creditB === null ? 'B' : null].filter((s) => s !== null);
  return `No difference: ${missing.join(' and ')} ${missing.length === 2 ? 'have' : 'has'} no credit for this message`;
}

/** "12 paired (5 changed) · 2 only in A · 1 only in B". */
export function countsLine(data: EpisodeDiffData): string {
  const { paired, changed, deleted, inserted } = data.counts;
  return `${formatInt(paired)} paired (${formatInt(changed)} with changed text) · ${formatInt(deleted)} only in A · ${formatInt(inserted)} only in B`;
}
