import { extent } from 'd3-array';
import { binLabel, binMean, stepBins, type StepBin } from './stepBins';

/** One line: a value per step, null for a gap. */
export interface Series {
  readonly key: string;
  readonly label: string;
  readonly values: readonly (number | null)[];
}

/** A step column of a chart with the tooltip text of its values. */
export interface HoverBin extends StepBin {
  readonly text: string;
}

/** A line chart over training steps. */
export interface LineChartModel {
  readonly steps: readonly number[];
  readonly series: readonly Series[];
  readonly xDomain: readonly [number, number];
  readonly yDomain: readonly [number, number];
  readonly hover: readonly HoverBin[];
}

/** Options of {@link lineChartModel}. */
export interface LineChartOptions {
  /** Fixed y domain; otherwise the values' extent, padded a little (and [0, 1] when there are none). */
  readonly yDomain?: readonly [number, number];
  /** Most hover columns (≈ plot width / 3 px). */
  readonly maxHover?: number;
  /** Formats a value in the tooltips. */
  readonly format?: (value: number) => string;
}

/** `[min, max]` of the steps; `[0, 1]` for none, `[s - 1, s + 1]` for a single step. */
export function stepDomain(steps: readonly number[]): [number, number] {
  const [lo, hi] = extent(steps);
  if (lo === undefined) return [0, 1];
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

/** Extent of the non-null values padded by 5 % of the span; `[0, 1]` without values. */
export function paddedExtent(series: readonly Series[]): [number, number] {
  const [lo, hi] = extent(
    series.flatMap((s) => s.values),
    (v) => v ?? undefined,
  );
  if (lo === undefined) return [0, 1];
  const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 0.05;
  return [lo - pad, hi + pad];
}

/** The hover columns: per bin of steps, every series' value (the bin's mean when it spans steps). */
export function hoverBins(
  steps: readonly number[],
  series: readonly Series[],
  maxBins: number,
  format: (v: number) => string,
): HoverBin[] {
  return stepBins(steps, maxBins).map((bin) => {
    const parts = series.map((s) => {
      const v = binMean(s.values, bin);
      return `${s.label} ${v === null ? '—' : format(v)}`;
    });
    const prefix = bin.start + 1 === bin.end ? binLabel(bin) : `${binLabel(bin)} (mean)`;
    return { ...bin, text: `${prefix}: ${parts.join(', ')}` };
  });
}

/** The model of a line chart of `series` (values aligned with `steps`). */
export function lineChartModel(
  steps: readonly number[],
  series: readonly Series[],
  options: LineChartOptions = {},
): LineChartModel {
  const format = options.format ?? ((v: number) => v.toFixed(2));
  return {
    steps,
    series,
    xDomain: stepDomain(steps),
    yDomain: options.yDomain ?? paddedExtent(series),
    hover: hoverBins(steps, series, options.maxHover ?? 200, format),
  };
}
