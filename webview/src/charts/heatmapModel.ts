import type { RunOverview } from '../../../src/protocol/dashboardPanel';
import { beyondMark, creditPaint, creditStateLabels, domainBound, type CreditPaint } from './creditScale';
import { alignedRow } from './matrix';
import { binLabel, binMean, stepBins, type StepBin } from './stepBins';

/** One cell of the step × agent heatmap: an agent's mean credit over a bin of steps. */
export interface HeatCell {
  readonly key: string;
  readonly agent: string;
  readonly row: number;
  readonly col: number;
  /** Null when the agent has no credit in these steps (drawn as an empty or a hatched cell). */
  readonly value: number | null;
  /** How the cell is painted on the run's fixed domain. */
  readonly paint: CreditPaint;
  readonly text: string;
}

export interface HeatmapModel {
  readonly agents: readonly string[];
  readonly columns: readonly StepBin[];
  readonly cells: readonly HeatCell[];
  /** The colour scale spans ±bound: the run's fixed domain (the same for every method). */
  readonly bound: number;
}

/**
 * The heatmap of mean credit for `agents` (rows) over the steps, in at most `maxColumns` columns,
 * painted on the overview's fixed domain. A cell without credit is not identifiable when one of its
 * steps holds an episode the data cannot answer (the run's most frequent reason in its hover).
 */
export function heatmapModel(
  overview: Pick<RunOverview, 'steps' | 'meanCredit' | 'colour' | 'coverage'>,
  agents: readonly string[],
  maxColumns = 400,
): HeatmapModel {
  const columns = stepBins(overview.steps, maxColumns);
  const bound = domainBound(overview.colour.domain);
  const unidentified = overview.colour.unidentifiedSteps;
  const unknownColumns = columns.map((bin) => unidentified.some((s) => s >= bin.from && s <= bin.to));
  const reason = overview.coverage.reason;
  const cells = agents.flatMap((agent, row) => {
    const values = alignedRow(overview.meanCredit, agent, overview.steps);
    return columns.map((bin) => {
      const value = binMean(values, bin);
      const paint = creditPaint(value, bound, unknownColumns[bin.index] === true);
      const text = `${agent}, ${binLabel(bin)}: ${cellText(value, paint, bound, reason)}`;
      return { key: `${agent}|${bin.key}`, agent, row, col: bin.index, value, paint, text };
    });
  });
  return { agents, columns, cells, bound };
}

function cellText(value: number | null, paint: CreditPaint, bound: number, reason: string | null): string {
  if (paint.state === 'unidentified') return `${creditStateLabels.unidentified}${reason ? ` (${reason})` : ''}`;
  if (value === null) return creditStateLabels.none;
  const beyond = beyondMark(paint, bound).text;
  return `mean credit ${value.toFixed(3)}${beyond ? ` (${beyond})` : ''}`;
}

/**
 * Columns (of `count`, evenly spread over `[0, width)`) that a pixel range touches, as
 * `[first, last]` inclusive; undefined for an empty or inverted range or no columns.
 */
export function columnsInPixels(
  count: number,
  width: number,
  [x0, x1]: readonly [number, number],
): [number, number] | undefined {
  if (count <= 0 || width <= 0 || !(x1 > x0)) return undefined;
  const w = width / count;
  const first = Math.min(count - 1, Math.max(0, Math.floor(x0 / w)));
  const last = Math.min(count - 1, Math.max(first, Math.ceil(x1 / w) - 1));
  return [first, last];
}

/** The step range `[from, to]` of columns `first..last`. */
export function columnSteps(
  columns: readonly StepBin[],
  [first, last]: readonly [number, number],
): { stepFrom: number; stepTo: number } | undefined {
  const a = columns[first];
  const b = columns[last];
  return a && b ? { stepFrom: a.from, stepTo: b.to } : undefined;
}

/**
 * The columns covered by a step filter `[stepFrom, stepTo]` (either end may be open), as
 * `[first, last]`; undefined when no bound is set or no column falls inside.
 */
export function stepColumns(
  columns: readonly StepBin[],
  stepFrom: number | null,
  stepTo: number | null,
): [number, number] | undefined {
  if (stepFrom === null && stepTo === null) return undefined;
  const inside = columns.filter(
    (c) => (stepFrom === null || c.to >= stepFrom) && (stepTo === null || c.from <= stepTo),
  );
  const first = inside[0];
  const last = inside[inside.length - 1];
  return first && last ? [first.index, last.index] : undefined;
}
