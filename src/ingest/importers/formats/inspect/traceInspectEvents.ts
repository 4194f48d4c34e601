import type { Message } from '../../../../core/episode';
import { arrayField, definedOnly, idText, isRecord, recordField, stringOf, type JsonRecord } from '../common/json';
import { inspectChatMessage, inspectRoles, messageKey, outputTokens } from './traceInspectMessages';
import { contentText, joinLines, type TextResolver } from '../common/traceText';

// Multi-agent Inspect samples (trace-formats.md §3.7): agents run inside transcript spans
// (`span_begin {id, parent_id, type: "agent", name}` … `span_end {id}`). Each `model` event is
// attributed to its nearest enclosing agent span; events inside a `scorer` span (model-graded
// scoring) are not part of the episode.

interface Span {
  readonly parent?: string;
  readonly type?: string;
  readonly name?: string;
}

/** The span tree of one sample, built as its events are read in order. */
class SpanTree {
  private readonly spans = new Map<string, Span>();
  private readonly open: string[] = [];
  readonly agentNames: string[] = [];

  begin(event: JsonRecord): void {
    const id = idText(event['id']);
    if (id === undefined) return;
    const span = definedOnly({
      parent: idText(event['parent_id']) ?? this.current(),
      type: stringOf(event['type']),
      name: idText(event['name']),
    });
    this.spans.set(id, span);
    this.open.push(id);
    if (span.type === 'agent' && span.name !== undefined && !this.agentNames.includes(span.name))
      this.agentNames.push(span.name);
  }

  end(event: JsonRecord): void {
    const at = this.open.lastIndexOf(idText(event['id']) ?? '');
    if (at >= 0) this.open.length = at;
  }

  /** The span an event ran in: its `span_id`, else (older logs) the innermost open span. */
  spanOf(event: JsonRecord): string | undefined {
    return idText(event['span_id']) ?? this.current();
  }

  /** The nearest enclosing span of `type` (`agent`, `scorer`) and its name. */
  enclosing(spanId: string | undefined, type: string): Span | undefined {
    const visited = new Set<string>();
    for (let id = spanId; id !== undefined && !visited.has(id); id = this.spans.get(id)?.parent) {
      visited.add(id);
      const span = this.spans.get(id);
      if (span?.type === type) return span;
    }
    return undefined;
  }

  private current(): string | undefined {
    return this.open[this.open.length - 1];
  }
}

/** The agent spans' names in order of first appearance (empty for single-agent logs). */
export function inspectAgentNames(events: readonly unknown[]): string[] {
  const tree = new SpanTree();
  for (const event of events) if (isRecord(event) && event['event'] === 'span_begin') tree.begin(event);
  return tree.agentNames;
}

/** Messages rebuilt from events, and the model each agent ran on (its `policy`). */
export interface InspectTranscript {
  readonly messages: Message[];
  readonly models: ReadonlyMap<string, string>;
}

/** Collects messages once: by `id`, and by role and text (sub-agents receive copies of the prompt). */
class Emitter {
  readonly messages: Message[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly resolve: TextResolver) {}

  isNew(message: JsonRecord): boolean {
    const id = idText(message['id']);
    return (
      !(id !== undefined && this.seen.has(`id:${id}`)) && !this.seen.has(`key:${messageKey(message, this.resolve)}`)
    );
  }

  emit(message: Message | undefined, source?: JsonRecord): void {
    if (message) this.messages.push(message);
    if (!source) return;
    const id = idText(source['id']);
    if (id !== undefined) this.seen.add(`id:${id}`);
    this.seen.add(`key:${messageKey(source, this.resolve)}`);
  }
}

function modelEvent(event: JsonRecord, agent: string, out: Emitter, resolve: TextResolver): void {
  for (const input of arrayField(event, 'input') ?? []) {
    const role = isRecord(input) ? input['role'] : undefined;
    if (isRecord(input) && (role === 'system' || role === 'user') && out.isNew(input))
      out.emit(inspectChatMessage(input, agent, resolve), input);
  }
  const output = recordField(event, 'output');
  const choice = (output ? arrayField(output, 'choices') : undefined)?.[0];
  const message = isRecord(choice) ? choice['message'] : undefined;
  if (isRecord(message)) out.emit(inspectChatMessage(message, agent, resolve, outputTokens(output)), message);
}

function toolEvent(event: JsonRecord, out: Emitter, resolve: TextResolver): void {
  const error = recordField(event, 'error');
  const errorText = error ? stringOf(error['message']) : undefined;
  const content = joinLines([
    contentText(event['result'], resolve),
    errorText === undefined ? '' : `error: ${errorText}`,
  ]);
  const id = idText(event['message_id']);
  const source = id === undefined ? undefined : { id, role: 'tool', content };
  out.emit({ agent: inspectRoles.tools, role: 'tool', channel: 'tool_result', content }, source);
}

/** What {@link inspectEventTranscript} reads: the sample's events and leading messages. */
export interface InspectEventInput {
  readonly events: readonly unknown[];
  readonly preamble: readonly unknown[];
  readonly fallbackAgent: string;
  readonly resolve: TextResolver;
}

/**
 * Rebuilds the conversation from events (§6 "one per model event"): first `preamble` (the
 * sample's leading system / user messages), then per `model` event its new system / user input
 * messages and its output message, spoken by the enclosing agent span (else `fallbackAgent`), and
 * per `tool` event its result (agent `tools`).
 */
export function inspectEventTranscript({
  events,
  preamble,
  fallbackAgent,
  resolve,
}: InspectEventInput): InspectTranscript {
  const tree = new SpanTree();
  const out = new Emitter(resolve);
  const models = new Map<string, string>();
  for (const message of preamble)
    if (isRecord(message)) out.emit(inspectChatMessage(message, fallbackAgent, resolve), message);
  for (const event of events) {
    if (!isRecord(event)) continue;
    const kind = event['event'];
    if (kind === 'span_begin') tree.begin(event);
    else if (kind === 'span_end') tree.end(event);
    if ((kind !== 'model' && kind !== 'tool') || tree.enclosing(tree.spanOf(event), 'scorer')) continue;
    if (kind === 'tool') {
      toolEvent(event, out, resolve);
      continue;
    }
    const agent = tree.enclosing(tree.spanOf(event), 'agent')?.name ?? fallbackAgent;
    const model = stringOf(event['model']);
    if (model !== undefined && !models.has(agent)) models.set(agent, model);
    modelEvent(event, agent, out, resolve);
  }
  return { messages: out.messages, models };
}
