// The one module of defensive readers for untrusted records (JSON objects and parquet rows), shared
// by every importer (docs/trace-format.md §7, "type drift": ids, steps and levels arrive as numbers
// or strings, rewards as booleans, parquet INT64 as bigints). Every reader returns undefined for a
// value of the wrong type; none throws. One name, one answer: `numberOf(true)` is undefined
// everywhere; a reward or score that may be logged as a boolean is read with `scoreOf`.

/** A parsed JSON object. */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** True for a plain object (not null, not an array, not a typed array). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

/** `obj[key]` when it is an object, else undefined. */
export function recordField(obj: JsonRecord, key: string): JsonRecord | undefined {
  const value = obj[key];
  return isRecord(value) ? value : undefined;
}

/** `obj[key]` when it is an array, else undefined. */
export function arrayField(obj: JsonRecord, key: string): readonly unknown[] | undefined {
  const value = obj[key];
  return Array.isArray(value) ? value : undefined;
}

/** `value` when it is a string (possibly empty), else undefined. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** An id or name: a non-blank string (trimmed) or a finite number as its decimal text. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : undefined;
}

/** A finite number, a string holding one (`"0.5"`, `" 1 "`) or a bigint (parquet INT64); booleans are not numbers. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** A reward, score or metric: {@link numberOf}, or a boolean as 1 / 0 (verl's `acc: true`, a correctness flag). */
export function scoreOf(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return numberOf(value);
}

/** An integer, or a string holding one (`"12"`, `12n`); `2.0` is 2, `1.5` and booleans are undefined. */
export function integerOf(value: unknown): number | undefined {
  const n = numberOf(value);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/** Text of any JSON value: strings as they are, other values as JSON; null and undefined give undefined. */
export function jsonText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The file path without its extension, `/`-separated: `Hand-Crafted/3.json` → `Hand-Crafted/3`. */
export function fileStem(uri: string): string {
  const slash = uri.lastIndexOf('/');
  const dot = uri.lastIndexOf('.');
  return dot > slash + 1 ? uri.slice(0, dot) : uri;
}

/** A copy of `obj` without its undefined properties, so optional fields are absent rather than undefined. */
export function definedOnly<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) if (value !== undefined) out[key] = value;
  return out as T;
}
