// Number and label formatting of the Episode view. Pure: no DOM.

export { methodLabels } from '../methodLabels';

const minus = '\u2212';

/**
 * A signed credit for display: `+0.083`, `−1.250`, `0`, `+0.00023` (two significant digits below
 * 0.001), `+1.2e-7`, `—` for null.
 * Uses the typographic minus so negative values read as such next to positive ones.
 */
export function formatCredit(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  const digits =
    abs >= 100
      ? abs.toFixed(1)
      : abs >= 0.001
        ? abs.toFixed(3)
        : abs >= 1e-6
          ? abs.toPrecision(2)
          : abs.toExponential(1);
  return `${value < 0 ? minus : '+'}${digits}`;
}

/** A reward or other unsigned-by-convention number: `0.750`, `—` for null. */
export function formatNumber(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const text = Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(3);
  return text.replace('-', minus);
}

/** A confidence interval `[0.300, 0.520]`, or '' when either end is missing. */
export function formatInterval(low: number | null, high: number | null): string {
  if (low === null || high === null) return '';
  return `[${formatNumber(low)}, ${formatNumber(high)}]`;
}

/** `1920` → `1,920` (en-US grouping, so tests and screenshots do not depend on the locale). */
export function formatInt(value: number): string {
  return value.toLocaleString('en-US');
}

/** "step 12 · group 3 · sample 1" from the parts that are present. */
export function formatPosition(step: number | null, group: string | null, sample: number | null): string {
  const parts: string[] = [];
  if (step !== null) parts.push(`step ${formatInt(step)}`);
  if (group !== null) parts.push(`group ${group}`);
  if (sample !== null) parts.push(`sample ${formatInt(sample)}`);
  return parts.join(' · ');
}
