import type { RunOverview } from '../../../src/protocol/dashboardPanel';
import { creditMagnitude } from './creditScale';
import { alignedRow } from './matrix';
import { binLabel, binMean, stepBins, type StepBin } from './stepBins';

/** One cell of the step × agent heatmap: an agent's mean credit over a bin of steps. */
export interface HeatCell {
  readonly key: string;
  readonly agent: string;
  readonly row: number;
  readonly col: number;
  /** Null when the agent has no credit in these steps (drawn as an empty cell). */
  readonly value: number | null;
  readonly text: string;
}

export interface HeatmapModel {
  readonly agents: readonly string[];
  readonly columns: readonly StepBin[];
  readonly cells: readonly HeatCell[];
  /** Largest |mean credit|: the colour scale spans ±magnitude. */
  readonly magnitude: number;
}

/** The heatmap of mean credit for `agents` (rows) over the steps, in at most `maxColumns` columns. */
export function heatmapModel(
  overview: Pick<RunOverview, 'steps' | 'meanCredit'>,
  agents: readonly string[],
  maxColumns = 400,
): HeatmapModel {
  const columns = stepBins(overview.steps, maxColumns);
  const cells = agents.flatMap((agent, row) => {
    const values = alignedRow(overview.meanCredit, agent, overview.steps);
    return columns.map((bin) => {
      const value = binMean(values, bin);
      const text = `${agent}, ${binLabel(bin)}: mean credit ${value === null ? '—' : value.toFixed(3)}`;
      return { key: `${agent}|${bin.key}`, agent, row, col: bin.index, value, text };
    });
  });
  return { agents, columns, cells, magnitude: creditMagnitude(cells.map((c) => c.value)) };
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
