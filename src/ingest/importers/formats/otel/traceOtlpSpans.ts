import { arrayField, idText, isRecord, stringOf, type JsonRecord } from '../common/json';
import { attributes, type OtlpAttributes } from './traceOtlpValues';

// Spans out of OTLP/JSON `ExportTraceServiceRequest`s (trace-formats.md §4): resourceSpans[] →
// scopeSpans[] (older SDKs: instrumentationLibrarySpans[]) → spans[].

/** A span event: its name and attributes. */
export interface OtelEvent {
  readonly name: string;
  readonly attributes: OtlpAttributes;
}

/** A span with decoded attributes, its resource's attributes and its position in the file. */
export interface OtelSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  /** `startTimeUnixNano` as decimal text without leading zeros ("" when absent). */
  readonly start: string;
  readonly attributes: OtlpAttributes;
  readonly events: readonly OtelEvent[];
  readonly resource: OtlpAttributes;
  /** Document order across all records, the tie-breaker for equal start times. */
  readonly order: number;
}

function nanos(value: unknown): string {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : stringOf(value);
  return text !== undefined && /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : '';
}

function spanEvents(span: JsonRecord): OtelEvent[] {
  return (arrayField(span, 'events') ?? []).flatMap((event) => {
    const name = isRecord(event) ? stringOf(event['name']) : undefined;
    return isRecord(event) && name !== undefined ? [{ name, attributes: attributes(event['attributes']) }] : [];
  });
}

function readSpan(span: unknown, resource: OtlpAttributes, order: number): OtelSpan | undefined {
  if (!isRecord(span)) return undefined;
  const traceId = idText(span['traceId'] ?? span['trace_id']);
  const spanId = idText(span['spanId'] ?? span['span_id']);
  if (traceId === undefined || spanId === undefined) return undefined;
  const parent = idText(span['parentSpanId'] ?? span['parent_span_id']);
  return {
    traceId,
    spanId,
    ...(parent === undefined ? {} : { parentSpanId: parent }),
    name: stringOf(span['name']) ?? '',
    start: nanos(span['startTimeUnixNano'] ?? span['start_time_unix_nano']),
    attributes: attributes(span['attributes']),
    events: spanEvents(span),
    resource,
    order,
  };
}

/** The spans of the records (each an ExportTraceServiceRequest); spans without ids are skipped. */
export function otlpSpans(records: readonly unknown[]): OtelSpan[] {
  const spans: OtelSpan[] = [];
  for (const record of records) {
    for (const resourceSpans of (isRecord(record) ? arrayField(record, 'resourceSpans') : undefined) ?? []) {
      if (!isRecord(resourceSpans)) continue;
      const resource = attributes(
        isRecord(resourceSpans['resource']) ? resourceSpans['resource']['attributes'] : undefined,
      );
      const scopes =
        arrayField(resourceSpans, 'scopeSpans') ?? arrayField(resourceSpans, 'instrumentationLibrarySpans') ?? [];
      for (const scope of scopes) {
        for (const span of (isRecord(scope) ? arrayField(scope, 'spans') : undefined) ?? []) {
          const read = readSpan(span, resource, spans.length);
          if (read) spans.push(read);
        }
      }
    }
  }
  return spans;
}

/** Orders spans by start time, then document order. */
export function byStart(a: OtelSpan, b: OtelSpan): number {
  if (a.start.length !== b.start.length) return a.start.length - b.start.length;
  if (a.start !== b.start) return a.start < b.start ? -1 : 1;
  return a.order - b.order;
}

/** Spans grouped by trace id, traces in order of first appearance. */
export function tracesOf(spans: readonly OtelSpan[]): OtelSpan[][] {
  const traces = new Map<string, OtelSpan[]>();
  for (const span of spans) {
    const trace = traces.get(span.traceId) ?? [];
    trace.push(span);
    traces.set(span.traceId, trace);
  }
  return [...traces.values()];
}
