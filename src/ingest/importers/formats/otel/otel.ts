import type { Episode } from '../../../../core/episode';
import { err, ok, type Result } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { arrayField, isRecord } from '../common/json';
import { otelEpisode } from './traceOtelEpisode';
import { otlpSpans, tracesOf } from './traceOtlpSpans';

// OpenTelemetry GenAI traces as OTLP/JSON (trace-formats.md §4, §6; docs/otel.md): a `.json` file
// holds one ExportTraceServiceRequest, a `.jsonl` file one per line (the collector's file
// exporter). Episodes are traces, so spans are grouped by `traceId` across all records of the file.

/** True for an OTLP/JSON trace request (`resourceSpans` list). */
function isTraceRequest(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value['resourceSpans']);
}

/**
 * All records of the file (an array with `wholeFile`; a single request is accepted too) → one
 * episode per trace, in order of first appearance. A file without any span is an error.
 */
function toEpisodes(records: unknown, context: RecordContext): Result<Episode[]> {
  const list = Array.isArray(records) ? records : [records];
  if (!list.some(isTraceRequest)) return err('missing "resourceSpans" (not an OTLP/JSON trace export)');
  const spans = otlpSpans(list);
  if (spans.length === 0) return err('no spans with "traceId" and "spanId" in "resourceSpans[].scopeSpans[].spans"');
  return ok(tracesOf(spans).map((trace) => otelEpisode(trace, context.roster)));
}

/** Whether any attribute key of the first spans starts with `gen_ai.` or `rl.`. */
function hasGenAiAttributes(request: unknown): boolean {
  for (const span of otlpSpans([request]).slice(0, 50)) {
    for (const key of span.attributes.keys()) if (key.startsWith('gen_ai.') || key.startsWith('rl.')) return true;
  }
  return false;
}

/** OTLP/JSON with GenAI (`gen_ai.*`) or Credit Lens (`rl.*`) attributes: 0.95; other OTLP traces: 0.5. */
function detect(sample: DetectionSample): number {
  const requests = [sample.root, ...sample.records].filter(isTraceRequest);
  if (requests.length === 0) return 0;
  if (requests.some(hasGenAiAttributes)) return 0.95;
  const first = requests[0];
  return isRecord(first) && arrayField(first, 'resourceSpans')?.length ? 0.5 : 0.3;
}

/** OpenTelemetry GenAI spans (OTLP/JSON), including Credit Lens's own export (otelExport.ts). */
export const otelMapper: FormatMapper = {
  format: 'otel',
  label: 'OpenTelemetry GenAI traces (OTLP/JSON)',
  containers: ['json', 'jsonl'],
  jsonRecords: 'root',
  wholeFile: true,
  detect,
  toEpisodes,
};
