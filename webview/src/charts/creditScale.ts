import { scaleDiverging, type ScaleDiverging } from 'd3-scale';
import type { CreditDomainView } from '../../../src/protocol/viewData';

// The credit colours of every view (docs/architecture.md §4.4). A diverging ramp, red for
// negative and blue for positive (colour-blind safe), whose centre is the theme's neutral: the
// colours are CSS `color-mix()` expressions of the custom properties of media/webview.css
// (--credit-negative, --credit-positive, --credit-zero), so they follow a theme switch without a
// re-render, and zero reads as "nothing" in light, dark and high-contrast themes alike.

/** The ramp's colour at `t` in [−1, 1] (clamped; NaN is the centre): a CSS colour expression. */
export function creditRampColor(t: number): string {
  const x = Number.isFinite(t) ? Math.max(-1, Math.min(1, t)) : 0;
  if (x === 0) return 'var(--credit-zero)';
  const percent = Math.round(Math.abs(x) * 1000) / 10;
  const end = x < 0 ? 'var(--credit-negative)' : 'var(--credit-positive)';
  return `color-mix(in oklab, ${end} ${String(percent)}%, var(--credit-zero))`;
}

/**
 * The diverging colour scale for signed credit, centred on zero and symmetric (±`magnitude`), on
 * the theme-aware ramp. Values beyond ±magnitude are clamped. `magnitude` ≤ 0 or NaN falls back to 1.
 * Views colour on their run's fixed domain: pass {@link domainBound}, not the largest value shown.
 */
export function creditColorScale(magnitude: number): ScaleDiverging<string> {
  const m = Number.isFinite(magnitude) && magnitude > 0 ? magnitude : 1;
  return scaleDiverging((t: number) => creditRampColor(2 * t - 1))
    .domain([-m, 0, m])
    .clamp(true);
}

/** The largest |value| among finite `values` (NaN and null skipped); 0 for none. */
export function creditMagnitude(values: Iterable<number | null>): number {
  let max = 0;
  for (const v of values) if (v !== null && Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  return max;
}

/** The half-width of a domain sent by the host; 1 when it is missing or not a positive number. */
export function domainBound(domain: CreditDomainView | undefined): number {
  const bound = domain?.bound;
  return bound !== undefined && Number.isFinite(bound) && bound > 0 ? bound : 1;
}

/**
 * What a credit cell shows, each drawn its own way: a number (`value`; `zero` is exactly 0, the
 * solid neutral), `none` (no credit: no fill, dashed outline) or `unidentified` (the data cannot
 * answer: hatched, with a "?").
 */
export type CreditState = 'value' | 'zero' | 'none' | 'unidentified';

/** The words of each state, for legends, hovers and screen readers. */
export const creditStateLabels: Readonly<Record<CreditState, string>> = {
  value: 'credit',
  zero: 'zero credit',
  none: 'no credit',
  unidentified: 'not identifiable',
};

/** How one credit value is painted on a fixed domain. */
export interface CreditPaint {
  readonly state: CreditState;
  /** The ramp colour of a value (zero: the neutral); null for `none` and `unidentified` (drawn by class). */
  readonly color: string | null;
  /** |value| / bound, clamped to [0, 1] (0 without a value). */
  readonly strength: number;
  /** The value lies beyond the domain: drawn at the ramp's end and marked. */
  readonly beyond: 'above' | 'below' | null;
}

/**
 * How `value` is painted on ±`bound`: null or non-finite is no credit, or not identifiable when
 * `unidentified` says the data cannot answer it.
 */
export function creditPaint(value: number | null, bound: number, unidentified = false): CreditPaint {
  const b = Number.isFinite(bound) && bound > 0 ? bound : 1;
  if (value === null || !Number.isFinite(value))
    return { state: unidentified ? 'unidentified' : 'none', color: null, strength: 0, beyond: null };
  const beyond = value > b ? 'above' : value < -b ? 'below' : null;
  return {
    state: value === 0 ? 'zero' : 'value',
    color: creditRampColor(value / b),
    strength: Math.min(1, Math.abs(value) / b),
    beyond,
  };
}

/** A domain end as the legends print it: 2 decimals below 10, whole numbers above. */
export function formatBound(bound: number): string {
  return Math.abs(bound) >= 10 ? bound.toFixed(0) : bound.toFixed(2);
}

/** The marker and words of a value beyond the domain ("", when within it). */
export function beyondMark(paint: CreditPaint, bound: number): { glyph: string; text: string } {
  if (paint.beyond === null) return { glyph: '', text: '' };
  const end = paint.beyond === 'above' ? `+${formatBound(bound)}` : `−${formatBound(bound)}`;
  return { glyph: paint.beyond === 'above' ? '▲' : '▼', text: `beyond the scale's ${end}, drawn at its end` };
}
