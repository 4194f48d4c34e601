import { fnv1a } from '../../../../core/fnv1a';

// Deterministic OTLP ids for the exporter (pure: no clock, no randomness). OTLP/JSON writes trace
// ids as 32 and span ids as 16 lower-case hex digits, never all zero.

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** Ids of one exported trace: the trace id from the episode id and its position, span ids counted up. */
export class OtlpIds {
  readonly traceId: string;
  private readonly prefix: string;
  private count = 0;

  constructor(episodeId: string, index: number) {
    this.prefix = hex8(fnv1a(episodeId));
    this.traceId = `${this.prefix}${hex8(fnv1a(`trace\u0000${episodeId}`))}${hex8(index)}${hex8(index + 1)}`;
  }

  /** A new span id, unique within the trace. */
  nextSpanId(): string {
    this.count++;
    return `${this.prefix}${hex8(this.count)}`;
  }
}
