import { interpolateRdBu } from 'd3-scale-chromatic';
import { scaleDiverging, type ScaleDiverging } from 'd3-scale';

/**
 * The diverging colour scale for signed credit, shared by every view: centred on zero, symmetric
 * (±`magnitude`), red for negative and blue for positive (ColorBrewer RdBu, colour-blind safe).
 * Values beyond ±magnitude are clamped. `magnitude` ≤ 0 or NaN falls back to 1.
 */
export function creditColorScale(magnitude: number): ScaleDiverging<string> {
  const m = Number.isFinite(magnitude) && magnitude > 0 ? magnitude : 1;
  return scaleDiverging(interpolateRdBu).domain([-m, 0, m]).clamp(true);
}

/** The largest |value| among finite `values` (NaN and null skipped); 0 for none. */
export function creditMagnitude(values: Iterable<number | null>): number {
  let max = 0;
  for (const v of values) if (v !== null && Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  return max;
}
