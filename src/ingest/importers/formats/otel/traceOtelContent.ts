import { idText, integerOf, isRecord, stringOf } from '../common/json';
import type { OtelSpan } from './traceOtlpSpans';
import type { OtlpAttributes } from './traceOtlpValues';
import { contentText, joinLines, toolCallText } from '../common/traceText';

// Message content on GenAI spans (trace-formats.md §4, §7 "OTel generations"): current
// `gen_ai.input.messages` / `gen_ai.output.messages` ([{role, parts: [{type: "text", content} |
// {type: "tool_call", name, arguments} | {type: "tool_call_response", response}]}], JSON text or
// structured), and the pre-1.37 forms: `gen_ai.prompt` / `gen_ai.completion` (attribute or
// `gen_ai.content.*` event), `gen_ai.choice` events, flattened `gen_ai.completion.0.content`, and
// OpenInference `llm.output_messages.0.message.content`.

/** One message read from a span. */
export interface OtelMessage {
  readonly role?: string;
  readonly content: string;
  /** True when the message only calls tools. */
  readonly toolCallOnly: boolean;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function partText(part: unknown): { text: string; call: boolean } {
  if (!isRecord(part)) return { text: contentText(part), call: false };
  if (part['type'] === 'tool_call')
    return { text: toolCallText(idText(part['name']) ?? 'tool', part['arguments']), call: true };
  if (part['type'] === 'tool_call_response')
    return { text: contentText(part['response'] ?? part['result']), call: false };
  return { text: contentText([part]), call: false };
}

function oneMessage(item: unknown): OtelMessage | undefined {
  if (typeof item === 'string') return { content: item, toolCallOnly: false };
  if (!isRecord(item)) return undefined;
  const role = stringOf(item['role']);
  const base = role === undefined ? {} : { role };
  if (!Array.isArray(item['parts']))
    return { ...base, content: contentText(item['content'] ?? item['message']), toolCallOnly: false };
  const parts = item['parts'].map(partText);
  const toolCallOnly = parts.length > 0 && parts.every((p) => p.call);
  return { ...base, content: joinLines(parts.map((p) => p.text)), toolCallOnly };
}

/** Messages from a GenAI messages value: JSON text or a structured list; plain text is one message. */
export function genAiMessages(value: unknown): OtelMessage[] {
  const parsed = typeof value === 'string' ? (parseJson(value) ?? value) : value;
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.flatMap((item) => {
    const message = oneMessage(item);
    return message ? [message] : [];
  });
}

/** Flattened `<prefix>.<i>.<contentKey>` / `.<roleKey>` attributes (OpenLLMetry, OpenInference). */
function flattened(attrs: OtlpAttributes, prefix: string, contentKey: string, roleKey: string): OtelMessage[] {
  const out: OtelMessage[] = [];
  for (let i = 0; attrs.has(`${prefix}.${i}.${contentKey}`); i++) {
    const role = stringOf(attrs.get(`${prefix}.${i}.${roleKey}`));
    out.push({
      ...(role === undefined ? {} : { role }),
      content: contentText(attrs.get(`${prefix}.${i}.${contentKey}`)),
      toolCallOnly: false,
    });
  }
  return out;
}

function eventMessages(span: OtelSpan, eventName: string, keys: readonly string[]): OtelMessage[] {
  return span.events
    .filter((e) => e.name === eventName)
    .flatMap((e) => {
      const key = keys.find((k) => e.attributes.has(k));
      return key === undefined ? [] : genAiMessages(e.attributes.get(key));
    });
}

/** What a span says the model (or agent) produced, from the first source that has any. */
export function spanOutputs(span: OtelSpan): OtelMessage[] {
  const attrs = span.attributes;
  const sources: (() => OtelMessage[])[] = [
    () => (attrs.has('gen_ai.output.messages') ? genAiMessages(attrs.get('gen_ai.output.messages')) : []),
    () => eventMessages(span, 'gen_ai.choice', ['message', 'gen_ai.event.content', 'content']),
    () => eventMessages(span, 'gen_ai.content.completion', ['gen_ai.completion']),
    () => (attrs.has('gen_ai.completion') ? genAiMessages(attrs.get('gen_ai.completion')) : []),
    () => flattened(attrs, 'gen_ai.completion', 'content', 'role'),
    () => flattened(attrs, 'llm.output_messages', 'message.content', 'message.role'),
  ];
  for (const source of sources) {
    const messages = source();
    if (messages.length > 0) return messages;
  }
  return [];
}

/** The user text a span was given (`gen_ai.input.messages`, `gen_ai.prompt`), or undefined. */
export function spanPrompt(span: OtelSpan): string | undefined {
  const attrs = span.attributes;
  const value = attrs.get('gen_ai.input.messages') ?? attrs.get('gen_ai.prompt');
  const messages =
    value === undefined ? eventMessages(span, 'gen_ai.content.prompt', ['gen_ai.prompt']) : genAiMessages(value);
  const users = messages.filter((m) => m.role === undefined || m.role === 'user').map((m) => m.content);
  return users.length > 0 ? users.join('\n\n') : undefined;
}

/** Output tokens: `gen_ai.usage.output_tokens`, or the pre-1.37 `gen_ai.usage.completion_tokens`. */
export function spanOutputTokens(span: OtelSpan): number | undefined {
  return integerOf(
    span.attributes.get('gen_ai.usage.output_tokens') ?? span.attributes.get('gen_ai.usage.completion_tokens'),
  );
}
