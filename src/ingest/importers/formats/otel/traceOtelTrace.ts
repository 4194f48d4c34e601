import type { Message } from '../../../../core/episode';
import { definedOnly, idText, integerOf, jsonText, stringOf } from '../common/json';
import { spanOutputs, spanOutputTokens } from './traceOtelContent';
import { genAi, rl } from './traceOtelNames';
import { byStart, type OtelSpan } from './traceOtlpSpans';

// One trace's span tree (trace-formats.md §4): parentage from `parentSpanId`; an agent is the
// `gen_ai.agent.name` of the span or its nearest ancestor that has one (OpenInference: the name of
// the nearest AGENT span).

/** The spans of one trace with parent links, the root and attribute look-ups. */
export class TraceView {
  readonly spans: readonly OtelSpan[];
  readonly root: OtelSpan;
  private readonly byId: ReadonlyMap<string, OtelSpan>;

  /** `spans` must be non-empty and share one trace id. */
  constructor(spans: readonly OtelSpan[]) {
    this.spans = [...spans].sort(byStart);
    this.byId = new Map(this.spans.map((s) => [s.spanId, s]));
    const roots = this.spans.filter((s) => s.parentSpanId === undefined || !this.byId.has(s.parentSpanId));
    this.root = roots[0] ?? (this.spans[0] as OtelSpan);
  }

  /** The span itself, then its ancestors (stops at a cycle). */
  *lineage(span: OtelSpan): Generator<OtelSpan> {
    const visited = new Set<string>();
    for (let s: OtelSpan | undefined = span; s && !visited.has(s.spanId); s = this.parentOf(s)) {
      visited.add(s.spanId);
      yield s;
    }
  }

  private parentOf(span: OtelSpan): OtelSpan | undefined {
    return span.parentSpanId === undefined ? undefined : this.byId.get(span.parentSpanId);
  }

  /** The span naming the agent `span` runs in: itself or its nearest ancestor with an agent name. */
  agentSpan(span: OtelSpan): OtelSpan | undefined {
    for (const s of this.lineage(span)) if (agentNameOf(s) !== undefined) return s;
    return undefined;
  }

  /** The agent `span` runs in. */
  agentOf(span: OtelSpan): string | undefined {
    const s = this.agentSpan(span);
    return s ? agentNameOf(s) : undefined;
  }

  /** `key` on the root span, else on the first span (by start time) that has it. */
  attr(key: string): unknown {
    if (this.root.attributes.has(key)) return this.root.attributes.get(key);
    return this.spans.find((s) => s.attributes.has(key))?.attributes.get(key);
  }
}

/** `gen_ai.agent.name`, or the name of an OpenInference AGENT span. */
export function agentNameOf(span: OtelSpan): string | undefined {
  const name = idText(span.attributes.get(genAi.agentName));
  if (name !== undefined) return name;
  return span.attributes.get('openinference.span.kind') === 'AGENT' ? idText(span.name) : undefined;
}

/** `gen_ai.operation.name`, or the first word of the span name (`execute_tool get_weather`). */
export function operationOf(span: OtelSpan): string | undefined {
  return stringOf(span.attributes.get(genAi.operation)) ?? /^(\w+)/.exec(span.name)?.[1];
}

/** A message and the span that produced it. */
export interface ProducedMessage {
  readonly span: OtelSpan;
  readonly message: Message;
  readonly tool: boolean;
}

function stringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const strings = value.filter((v): v is string => typeof v === 'string');
  return strings.length === value.length ? strings : undefined;
}

function numberArray(value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const numbers = value.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return numbers.length === value.length ? numbers : undefined;
}

/** Fields written by the exporter (docs/otel.md §3): with `rl.message.index` they are authoritative. */
function exactFields(span: OtelSpan): Partial<Message> {
  const a = span.attributes;
  return definedOnly({
    turn: integerOf(a.get(rl.messageTurn)),
    tokens: stringArray(a.get(rl.messageTokens)),
    logprobs: numberArray(a.get(rl.messageLogprobs)),
    attribution: numberArray(a.get(rl.messageAttribution)),
  });
}

function toolMessage(span: OtelSpan, exact: boolean): Message {
  const a = span.attributes;
  const result = a.get(genAi.toolResult);
  return definedOnly({
    agent: idText(a.get(genAi.toolName)) ?? 'tool',
    role: exact ? stringOf(a.get(rl.messageRole)) : 'tool',
    channel: exact ? stringOf(a.get(rl.messageChannel)) : 'tool_result',
    content: jsonText(result) ?? '',
    tokenCount: spanOutputTokens(span),
    ...exactFields(span),
  });
}

function modelMessage(view: TraceView, span: OtelSpan, exact: boolean): Message | undefined {
  const output = spanOutputs(span)[0];
  if (!output) return undefined;
  const a = span.attributes;
  return definedOnly({
    agent: view.agentOf(span) ?? 'assistant',
    role: exact ? stringOf(a.get(rl.messageRole)) : (output.role ?? 'assistant'),
    channel: exact ? stringOf(a.get(rl.messageChannel)) : output.toolCallOnly ? 'tool_call' : undefined,
    content: output.content,
    tokenCount: spanOutputTokens(span),
    ...exactFields(span),
  });
}

/**
 * The trace's messages in start-time order (trace-formats.md §6 "one per model span"): each
 * `execute_tool` span is a tool result spoken by the tool (`gen_ai.tool.name`); each other span
 * with output messages gives its first output message, spoken by its agent, unless a descendant
 * has output messages too (an `invoke_agent` span repeats its last model call's output).
 */
export function producedMessages(view: TraceView): ProducedMessage[] {
  const withOutputs = new Set(view.spans.filter((s) => operationOf(s) !== 'create_agent' && spanOutputs(s).length > 0));
  const covered = new Set<string>();
  for (const span of withOutputs) for (const s of view.lineage(span)) if (s !== span) covered.add(s.spanId);
  const produced: ProducedMessage[] = [];
  for (const span of view.spans) {
    const exact = span.attributes.has(rl.messageIndex);
    if (operationOf(span) === 'execute_tool') {
      produced.push({ span, message: toolMessage(span, exact), tool: true });
      continue;
    }
    const message = withOutputs.has(span) && !covered.has(span.spanId) ? modelMessage(view, span, exact) : undefined;
    if (message) produced.push({ span, message, tool: false });
  }
  return produced;
}
