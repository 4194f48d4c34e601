import { createHash } from 'node:crypto';

// Defensive readers for the RL-dump mappers (verl, CCPO, C3, TRL, declarative mappings). Records
// are untrusted JSON (or parquet rows): every reader accepts `unknown` and returns `undefined` for
// a value it cannot read, so the mapper decides whether that is an error.

export { integerOf, isRecord, scoreOf, type JsonRecord } from './json';
import { isRecord, scoreOf, type JsonRecord } from './json';

/** An id or a name: a non-empty string, or a finite number as its decimal text. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/** A string as is; a number or boolean as its text; anything else undefined. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/** Ground truth as text (trace-format.md §2.1): strings kept, other values as JSON; null is absent. */
export function jsonTextOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return JSON.stringify(jsonSafe(value));
}

/** The mean of a number or of an array of numbers (token-level values); undefined when none is numeric. */
export function meanOf(value: unknown): number | undefined {
  if (!Array.isArray(value)) return scoreOf(value);
  const values = value.map(scoreOf).filter((n): n is number => n !== undefined);
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

/** A short, stable content hash (10 hex digits of SHA-256), for group and task keys and ids. */
export function shortHash(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex').slice(0, 10);
}

/**
 * A copy of `value` that JSON can hold: bigints become numbers, non-finite numbers and binary
 * values (parquet images) are dropped, dates become ISO text. Used for `metadata`.
 */
export function jsonSafe(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (Array.isArray(value)) return value.map((v) => jsonSafe(v) ?? null);
  if (isRecord(value)) return jsonSafeRecord(value);
  return undefined;
}

/** {@link jsonSafe} over an object's entries, leaving out those that JSON cannot hold. */
export function jsonSafeRecord(value: JsonRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const safe = jsonSafe(v);
    if (safe !== undefined) out[key] = safe;
  }
  return out;
}

/** `obj` without its undefined fields (so mapped episodes hold only what the record logged). */
export function definedFields<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(obj)) if (v !== undefined) out[key] = v;
  return out as T;
}

/** The keys of `record` that are not in `reserved`, with their values. */
export function extraFields(record: JsonRecord, reserved: ReadonlySet<string>): JsonRecord {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) if (!reserved.has(key)) out[key] = v;
  return out;
}

/**
 * Splits extra fields into metrics (values {@link numberOf} reads: rewards, accuracies, flags) and
 * the rest (predictions, texts), for `metadata` (trace-formats.md §6: "every extra numeric key").
 */
export function metricsAndFields(extras: JsonRecord): {
  metrics?: Record<string, number>;
  fields?: Record<string, unknown>;
} {
  const metrics: Record<string, number> = {};
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extras)) {
    const n = typeof value === 'string' ? undefined : scoreOf(value);
    if (n !== undefined) metrics[key] = n;
    else {
      const safe = jsonSafe(value);
      if (safe !== undefined) fields[key] = safe;
    }
  }
  return definedFields({
    metrics: Object.keys(metrics).length > 0 ? metrics : undefined,
    fields: Object.keys(fields).length > 0 ? fields : undefined,
  });
}

/** The share (0..1) of `records` that `test` accepts; 0 for none. */
export function shareOf(records: readonly unknown[], test: (record: unknown) => boolean): number {
  if (records.length === 0) return 0;
  return records.filter(test).length / records.length;
}

/** `obj` when it has a field, else undefined (an empty `metadata` is left out). */
export function nonEmpty<T extends object>(obj: T): T | undefined {
  return Object.keys(obj).length > 0 ? obj : undefined;
}
