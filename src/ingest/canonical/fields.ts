/**
 * Typed field readers for decoding untrusted JSON. Each reader names the JSON path of the field it
 * rejects, so an error reads `messages[3].agent: expected a string, got number`.
 */

export type JsonObject = Record<string, unknown>;

/** Thrown by the readers; caught by the decoders, which turn it into a Result. */
export class DecodeError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(path ? `${path}: ${problem}` : problem);
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw new DecodeError(path, `expected an object, got ${describe(value)}`);
  return value;
}

export function requireString(obj: JsonObject, key: string, path: string): string {
  const value = obj[key];
  if (value === undefined) throw new DecodeError(at(path, key), 'is required');
  if (typeof value !== 'string') throw new DecodeError(at(path, key), `expected a string, got ${describe(value)}`);
  return value;
}

export function optionalString(obj: JsonObject, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new DecodeError(at(path, key), `expected a string, got ${describe(value)}`);
  return value;
}

/** Ids may be logged as numbers (Who&When, Inspect); they are kept as their decimal text. */
export function requireId(obj: JsonObject, key: string, path: string): string {
  const value = obj[key];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.length > 0) return value;
  if (value === undefined) throw new DecodeError(at(path, key), 'is required');
  throw new DecodeError(at(path, key), `expected a non-empty string or number, got ${describe(value)}`);
}

export function optionalId(obj: JsonObject, key: string, path: string): string | undefined {
  const value = obj[key];
  return value === undefined || value === null ? undefined : requireId(obj, key, path);
}

export function optionalNumber(obj: JsonObject, key: string, path: string): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new DecodeError(at(path, key), `expected a finite number, got ${describe(value)}`);
  }
  return value;
}

export function requireNumber(obj: JsonObject, key: string, path: string): number {
  const value = optionalNumber(obj, key, path);
  if (value === undefined) throw new DecodeError(at(path, key), 'is required');
  return value;
}

export function optionalInteger(obj: JsonObject, key: string, path: string): number | undefined {
  const value = optionalNumber(obj, key, path);
  if (value !== undefined && !Number.isInteger(value)) {
    throw new DecodeError(at(path, key), `expected an integer, got ${value}`);
  }
  return value;
}

export function optionalBoolean(obj: JsonObject, key: string, path: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new DecodeError(at(path, key), `expected a boolean, got ${describe(value)}`);
  return value;
}

export function optionalArray(obj: JsonObject, key: string, path: string): readonly unknown[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new DecodeError(at(path, key), `expected an array, got ${describe(value)}`);
  return value as unknown[];
}

export function requireArray(obj: JsonObject, key: string, path: string): readonly unknown[] {
  const value = optionalArray(obj, key, path);
  if (value === undefined) throw new DecodeError(at(path, key), 'is required');
  return value;
}

export function optionalObject(obj: JsonObject, key: string, path: string): JsonObject | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  return requireObject(value, at(path, key));
}

/** Validates an array of strings and returns it as is (no copy). */
export function optionalStringArray(obj: JsonObject, key: string, path: string): string[] | undefined {
  const values = optionalArray(obj, key, path);
  if (values === undefined) return undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'string')
      throw new DecodeError(at(at(path, key), i), `expected a string, got ${describe(value)}`);
  }
  return values as string[];
}

/** An array of ids (agent names): numbers become their decimal text, as in {@link requireId}. */
export function optionalIdArray(obj: JsonObject, key: string, path: string): string[] | undefined {
  const values = optionalArray(obj, key, path);
  return values?.map((value, i) => {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string' && value.length > 0) return value;
    throw new DecodeError(at(at(path, key), i), `expected a non-empty string or number, got ${describe(value)}`);
  });
}

/** Validates an array of finite numbers and returns it as is (no copy). */
export function optionalNumberArray(obj: JsonObject, key: string, path: string): number[] | undefined {
  const values = optionalArray(obj, key, path);
  if (values === undefined) return undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new DecodeError(at(at(path, key), i), `expected a finite number, got ${describe(value)}`);
    }
  }
  return values as number[];
}

/** An object whose values are all finite numbers, e.g. per-agent rewards. */
export function optionalNumberRecord(obj: JsonObject, key: string, path: string): Record<string, number> | undefined {
  const record = optionalObject(obj, key, path);
  if (record === undefined) return undefined;
  for (const [name, value] of Object.entries(record)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new DecodeError(at(at(path, key), name), `expected a finite number, got ${describe(value)}`);
    }
  }
  return record as Record<string, number>;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], path: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new DecodeError(path, `"${value}" is not one of ${allowed.join(', ')}`);
}

export { at as fieldPath };
