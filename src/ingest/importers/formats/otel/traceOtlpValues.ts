import { isRecord, numberOf } from '../common/json';

// OTLP/JSON `AnyValue` and `KeyValue` (opentelemetry-proto, JSON encoding): attributes are lists
// of `{key, value: {stringValue | intValue | doubleValue | boolValue | arrayValue | kvlistValue |
// bytesValue}}`; 64-bit integers are JSON strings ("412").

/** One OTLP `AnyValue` as written by the exporter. */
export interface OtlpAnyValue {
  readonly stringValue?: string;
  readonly intValue?: string;
  readonly doubleValue?: number;
  readonly boolValue?: boolean;
  readonly arrayValue?: { readonly values: readonly OtlpAnyValue[] };
  readonly kvlistValue?: { readonly values: readonly OtlpKeyValue[] };
}

/** One OTLP attribute. */
export interface OtlpKeyValue {
  readonly key: string;
  readonly value: OtlpAnyValue;
}

/** Decoded attributes: key → plain JSON value (ints as numbers, arrays as arrays, kvlists as objects). */
export type OtlpAttributes = ReadonlyMap<string, unknown>;

/** An `AnyValue` as a plain value; unknown shapes give undefined. */
export function anyValue(value: unknown): unknown {
  if (!isRecord(value)) return undefined;
  if ('stringValue' in value) return typeof value['stringValue'] === 'string' ? value['stringValue'] : undefined;
  if ('intValue' in value) return numberOf(value['intValue']);
  if ('doubleValue' in value) return numberOf(value['doubleValue']);
  if ('boolValue' in value) return typeof value['boolValue'] === 'boolean' ? value['boolValue'] : undefined;
  if (isRecord(value['arrayValue'])) {
    const values = value['arrayValue']['values'];
    return Array.isArray(values) ? values.map(anyValue) : [];
  }
  if (isRecord(value['kvlistValue'])) return Object.fromEntries(attributes(value['kvlistValue']['values']));
  return undefined;
}

/** A `KeyValue` list as a map; entries without a string key or a readable value are skipped. */
export function attributes(list: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isRecord(kv) || typeof kv['key'] !== 'string') continue;
    const value = anyValue(kv['value']);
    if (value !== undefined) out.set(kv['key'], value);
  }
  return out;
}

/** A plain value as an `AnyValue`: integers as `intValue`, other numbers as `doubleValue`, arrays element-wise. */
export function toAnyValue(
  value: string | number | boolean | readonly (string | number)[],
  double = false,
): OtlpAnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number')
    return Number.isInteger(value) && !double ? { intValue: String(value) } : { doubleValue: value };
  return { arrayValue: { values: value.map((v) => toAnyValue(v, double)) } };
}

/** Attribute list from `[key, value]` pairs; undefined values are left out. Numbers in `doubles` keys are always `doubleValue`. */
export function toAttributes(
  pairs: readonly (readonly [string, string | number | boolean | readonly (string | number)[] | undefined])[],
  doubles: ReadonlySet<string> = new Set(),
): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  for (const [key, value] of pairs)
    if (value !== undefined) out.push({ key, value: toAnyValue(value, doubles.has(key)) });
  return out;
}
