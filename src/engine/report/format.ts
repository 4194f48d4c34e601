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
