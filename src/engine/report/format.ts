/** Number formatting for terminal output. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** `1 file`, `3 files` (one helper for every count in words: core/plural.ts). */
export { plural } from '../../core/plural';

/** One CSV cell: empty for null or undefined, quoted when it holds a quote, comma or line break; objects as JSON. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
