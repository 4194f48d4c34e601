import { mean } from 'd3-array';

/** Consecutive training steps drawn as one column when there are more steps than pixels allow. */
export interface StepBin {
  readonly key: string;
  /** Position of the bin, 0-based. */
  readonly index: number;
  /** First and last step of the bin (inclusive). */
  readonly from: number;
  readonly to: number;
  /** Indexes into the steps array: `[start, end)`. */
  readonly start: number;
  readonly end: number;
}

/**
 * Groups ascending `steps` into at most `maxBins` bins of consecutive steps (each step its own bin
 * when they fit). `maxBins` < 1 counts as 1; no steps give no bins.
 */
export function stepBins(steps: readonly number[], maxBins: number): StepBin[] {
  const n = steps.length;
  if (n === 0) return [];
  const size = Math.ceil(n / Math.max(1, Math.floor(maxBins)));
  const bins: StepBin[] = [];
  for (let start = 0; start < n; start += size) {
    const end = Math.min(n, start + size);
    const from = steps[start] ?? 0;
    const to = steps[end - 1] ?? from;
    bins.push({ key: `${String(from)}-${String(to)}`, index: bins.length, from, to, start, end });
  }
  return bins;
}

/** Mean of the non-null `values` in the bin's index range; null when it has none. */
export function binMean(values: readonly (number | null)[], bin: StepBin): number | null {
  const m = mean(values.slice(bin.start, bin.end), (v) => v ?? undefined);
  return m === undefined ? null : m;
}

/** Every k-th of `values` so that at most `maxTicks` remain (always the first). */
export function thinTicks<T>(values: readonly T[], maxTicks: number): T[] {
  const stride = Math.max(1, Math.ceil(values.length / Math.max(1, Math.floor(maxTicks))));
  return values.filter((_, i) => i % stride === 0);
}

/** `12` or `10–14` for a bin. */
export function binLabel(bin: Pick<StepBin, 'from' | 'to'>): string {
  return bin.from === bin.to ? `step ${String(bin.from)}` : `steps ${String(bin.from)}–${String(bin.to)}`;
}
