import type { AgentDecl, Episode, Label, Message } from '../../../../core/episode';
import { evaluationNames, genAi, rl } from './traceOtelNames';
import { OtlpIds } from './traceOtlpIds';
import { toAttributes, type OtlpKeyValue } from './traceOtlpValues';

// Episodes → OpenTelemetry GenAI spans as OTLP/JSON (docs/otel.md): one trace per episode, which
// otelMapper imports back to equal episodes. Pure: ids are derived from the episodes and times
// count milliseconds from `startTimeMs`.

/** One computed credit value to attach: per agent, or per message when `message` is set. */
export interface OtlpCredit {
  readonly episode: string;
  readonly agent: string;
  readonly method: string;
  readonly value: number;
  readonly stderr?: number;
  /** 0-based message index, for per-message credit. */
  readonly message?: number;
}

export interface OtlpExportOptions {
  /** Start of every exported trace, in milliseconds since the epoch (integer, default 0). */
  readonly startTimeMs?: number;
  /** `service.name` of the resource (default `credit-lens`). */
  readonly serviceName?: string;
}

/** An OTLP/JSON span event. */
export interface OtlpEventData {
  readonly timeUnixNano: string;
  readonly name: string;
  readonly attributes: OtlpKeyValue[];
}

/** An OTLP/JSON span. `kind` is the SpanKind number (1 internal, 3 client). */
export interface OtlpSpanData {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: OtlpKeyValue[];
  readonly events: OtlpEventData[];
}

/** An OTLP/JSON `ExportTraceServiceRequest`. */
export interface OtlpTraceRequest {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: OtlpKeyValue[] };
    readonly scopeSpans: readonly { readonly scope: { readonly name: string }; readonly spans: OtlpSpanData[] }[];
  }[];
}

const doubles = new Set<string>([
  genAi.scoreValue,
  rl.value,
  rl.creditStderr,
  rl.messageLogprobs,
  rl.messageAttribution,
]);
const spanKind = { internal: 1, client: 3 } as const;

/** A span as the writer takes it: `at` ms (plus `nanos` ns) after the trace start; children of the root unless `root`. */
interface SpanInput {
  readonly name: string;
  readonly kind?: number;
  readonly at: number;
  readonly nanos?: number;
  readonly end?: number;
  readonly attributes: OtlpKeyValue[];
  readonly events?: OtlpEventData[];
  readonly root?: boolean;
}

type Pair = readonly [string, string | number | boolean | readonly (string | number)[] | undefined];

/** One episode's trace: ids, times, and its spans in order. */
class TraceWriter {
  readonly spans: OtlpSpanData[] = [];
  private readonly ids: OtlpIds;
  private readonly rootId: string;

  constructor(
    private readonly episode: Episode,
    index: number,
    private readonly credit: readonly OtlpCredit[],
    private readonly startMs: number,
  ) {
    this.ids = new OtlpIds(episode.id, index);
    this.rootId = this.ids.nextSpanId();
  }

  /** The root, the roster and the messages of the episode, in that order (docs/otel.md §3). */
  write(): OtlpSpanData[] {
    this.rootSpan();
    this.episode.agents.forEach((agent, k) => {
      this.agentSpan(agent, k);
    });
    this.episode.messages.forEach((message, i) => {
      this.messageSpan(message, i);
    });
    return this.spans;
  }

  /** Time `offset` ms (plus `nanos` ns, under 1 ms) after the trace start, as OTLP nanoseconds. */
  private time(offset: number, nanos = 0): string {
    const ms = this.startMs + offset;
    return ms === 0 ? String(nanos) : `${ms}${String(nanos).padStart(6, '0')}`;
  }

  private add(span: SpanInput): void {
    const start = this.time(span.at, span.nanos);
    this.spans.push({
      traceId: this.ids.traceId,
      spanId: span.root ? this.rootId : this.ids.nextSpanId(),
      ...(span.root ? {} : { parentSpanId: this.rootId }),
      name: span.name,
      kind: span.kind ?? spanKind.internal,
      startTimeUnixNano: start,
      endTimeUnixNano: span.end === undefined ? start : this.time(span.end),
      attributes: span.attributes,
      events: span.events ?? [],
    });
  }

  private event(name: string, at: number, pairs: readonly Pair[]): OtlpEventData {
    return { timeUnixNano: this.time(at), name, attributes: toAttributes(pairs, doubles) };
  }

  /** The root `invoke_workflow` span: episode fields as `rl.*`, the prompt as `gen_ai.input.messages`. */
  private rootSpan(): void {
    const e = this.episode;
    const end = e.messages.length + 1;
    const prompt =
      e.prompt === undefined ? undefined : json([{ role: 'user', parts: [{ type: 'text', content: e.prompt }] }]);
    const pairs: Pair[] = [
      [genAi.operation, 'invoke_workflow'],
      [genAi.workflowName, e.task ?? e.id],
      [genAi.conversationId, e.id],
      [rl.episodeId, e.id],
      [rl.step, e.step],
      [rl.group, e.group],
      [rl.sample, e.sample],
      [rl.task, e.task],
      [rl.split, e.split],
      [genAi.inputMessages, prompt],
      [rl.groundTruth, e.groundTruth],
      [rl.finalAnswer, e.final?.answer],
      [rl.finalAgent, e.final?.agent],
      [rl.routing, json(e.routing)],
      [rl.counterfactuals, json(e.counterfactuals)],
      [rl.coalitions, json(e.coalitions)],
      [rl.metadata, json(e.metadata)],
      [rl.agentsDeclared, true],
    ];
    this.add({
      root: true,
      name: `invoke_workflow ${e.task ?? e.id}`,
      at: 0,
      end,
      attributes: toAttributes(pairs),
      events: this.rootEvents(end),
    });
  }

  /** Team and per-agent rewards, advantages, labels without a message and per-agent credit. */
  private rootEvents(end: number): OtlpEventData[] {
    const e = this.episode;
    const evaluation = (name: string, value: number, agent?: string): OtlpEventData =>
      this.event(genAi.evaluationEvent, end, [
        [genAi.evaluationName, name],
        [genAi.agentName, agent],
        [genAi.scoreValue, value],
      ]);
    const events: OtlpEventData[] = [];
    if (e.reward !== undefined) events.push(evaluation(evaluationNames.team, e.reward));
    for (const [agent, value] of Object.entries(e.agentRewards ?? {}))
      events.push(evaluation(evaluationNames.agent, value, agent));
    for (const [agent, value] of Object.entries(e.advantages ?? {})) {
      events.push(
        this.event(rl.advantageEvent, end, [
          [genAi.agentName, agent],
          [rl.value, value],
        ]),
      );
    }
    return [...events, ...this.annotations(undefined, end)];
  }

  /** Label and credit events anchored on message `message` (undefined: on none). */
  private annotations(message: number | undefined, at: number): OtlpEventData[] {
    const labels = (this.episode.labels ?? []).flatMap((label, index) =>
      label.message === message ? [this.labelEvent(label, index, at)] : [],
    );
    const credit = this.credit
      .filter((c) => c.message === message)
      .map((c) =>
        this.event(rl.creditEvent, at, [
          [rl.creditMethod, c.method],
          [genAi.agentName, c.agent],
          [rl.value, c.value],
          [rl.creditStderr, c.stderr],
          [rl.messageIndex, c.message],
        ]),
      );
    return [...labels, ...credit];
  }

  private labelEvent(label: Label, index: number, at: number): OtlpEventData {
    return this.event(rl.labelEvent, at, [
      [rl.labelIndex, index],
      [rl.labelKind, label.kind],
      [genAi.agentName, label.agent],
      [rl.labelValue, label.value],
      [rl.labelReason, label.reason],
      [rl.labelAnnotator, label.annotator],
    ]);
  }

  /** One `create_agent` span per declared agent (silent agents included), k+1 ns after the start so they keep the roster's order. */
  private agentSpan(agent: AgentDecl, k: number): void {
    const pairs: Pair[] = [
      [genAi.operation, 'create_agent'],
      [genAi.agentName, agent.name],
      [genAi.agentDescription, agent.description],
      [rl.agentKind, agent.kind],
      [rl.agentPolicy, agent.policy],
      [rl.agentTrainable, agent.trainable],
    ];
    this.add({
      name: `create_agent ${agent.name}`,
      kind: spanKind.client,
      at: 0,
      nanos: k + 1,
      attributes: toAttributes(pairs),
    });
  }

  /** One span per message: `execute_tool` for tool results, else `invoke_agent` with the text as its output message. */
  private messageSpan(message: Message, index: number): void {
    const tool = message.channel === 'tool_result';
    const output = [
      { role: message.role ?? 'assistant', parts: [{ type: 'text', content: message.content }], finish_reason: 'stop' },
    ];
    const content: Pair[] = tool
      ? [
          [genAi.operation, 'execute_tool'],
          [genAi.toolName, message.agent],
          [genAi.toolResult, message.content],
        ]
      : [
          [genAi.operation, 'invoke_agent'],
          [genAi.agentName, message.agent],
          [genAi.outputMessages, json(output)],
        ];
    const pairs: Pair[] = [
      ...content,
      [rl.messageIndex, index],
      [rl.messageRole, message.role],
      [rl.messageChannel, message.channel],
      [rl.messageTurn, message.turn],
      [genAi.outputTokens, message.tokenCount],
      [rl.messageTokens, message.tokens],
      [rl.messageLogprobs, message.logprobs],
      [rl.messageAttribution, message.attribution],
    ];
    const name = `${tool ? 'execute_tool' : 'invoke_agent'} ${message.agent}`;
    this.add({
      name,
      at: index + 1,
      attributes: toAttributes(pairs, doubles),
      events: this.annotations(index, index + 1),
    });
  }
}

function json(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/**
 * Episodes (and optionally computed credit) → one OTLP/JSON `ExportTraceServiceRequest` with one
 * trace per episode (docs/otel.md §3): a root `invoke_workflow` span with the episode's `rl.*`
 * attributes and rewards as `gen_ai.evaluation.result` events, a `create_agent` span per roster
 * agent, and one span per message in order. Pure; `otelMapper` reads it back to equal episodes.
 */
export function episodesToOtlp(
  episodes: readonly Episode[],
  credit: readonly OtlpCredit[] = [],
  options: OtlpExportOptions = {},
): OtlpTraceRequest {
  const spans = episodes.flatMap((episode, index) => {
    const own = credit.filter((c) => c.episode === episode.id);
    return new TraceWriter(episode, index, own, options.startTimeMs ?? 0).write();
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: toAttributes([['service.name', options.serviceName ?? 'credit-lens']]) },
        scopeSpans: [{ scope: { name: 'credit-lens' }, spans }],
      },
    ],
  };
}
