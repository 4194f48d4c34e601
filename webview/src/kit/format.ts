// Number formatting of every Credit Lens webview. Pure: no DOM.

/**
 * The locale of every number the views show. Fixed to en-US rather than the VS Code display
 * language: the copy around the numbers is English only, the Output channel, the CLI and the
 * reports write the same figures with en-US grouping (one text wherever a number is read), and
 * tests and screenshots do not depend on the machine's locale.
 */
export const numberLocale = 'en-US';

const integers = new Intl.NumberFormat(numberLocale, { maximumFractionDigits: 0 });
const minus = '\u2212';

/** `1920` → `1,920` (grouped in {@link numberLocale}); null → `—`. */
export function formatInt(value: number | null): string {
  return value === null || !Number.isFinite(value) ? '—' : integers.format(value);
}

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

/** A reward or other unsigned-by-convention number: `0.750`, `−0.250`, `—` for null. */
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

/** The half-width of an estimate's interval, `±0.110` (an estimated value's mark); '' when either end is missing. */
export function formatMargin(low: number | null, high: number | null): string {
  if (low === null || high === null) return '';
  return `±${formatNumber((high - low) / 2)}`;
}

/** "step 12 · group 3 · sample 1" from the parts that are present. */
export function formatPosition(step: number | null, group: string | null, sample: number | null): string {
  const parts: string[] = [];
  if (step !== null) parts.push(`step ${formatInt(step)}`);
  if (group !== null) parts.push(`group ${group}`);
  if (sample !== null) parts.push(`sample ${formatInt(sample)}`);
  return parts.join(' · ');
}

/** A share as a percentage with one decimal: `0.25` → `25.0%`; null → `—`. */
export function formatPercent(share: number | null): string {
  return share === null || !Number.isFinite(share) ? '—' : `${(share * 100).toFixed(1)}%`;
}

/** A two-sided p-value as the CLI and the flags print it: `p < 0.001`, `p = 0.012`, `p = 0.5`; `p undefined` for null. */
export function formatP(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return 'p undefined';
  return p < 0.001 ? 'p < 0.001' : `p = ${String(Number(p.toPrecision(2)))}`;
}

/** A change of share in percentage points: `0.13` → `+13.0 pp`, `−2.5 pp`; null → `—`. */
export function formatPointChange(change: number | null): string {
  if (change === null || !Number.isFinite(change)) return '—';
  const points = Math.abs(change * 100).toFixed(1);
  if (points === '0.0') return '0.0 pp';
  return `${change < 0 ? minus : '+'}${points} pp`;
}
