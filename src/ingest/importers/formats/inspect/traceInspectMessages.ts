import type { Message } from '../../../../core/episode';
import {
  arrayField,
  definedOnly,
  idText,
  integerOf,
  isRecord,
  recordField,
  stringOf,
  type JsonRecord,
} from '../common/json';
import { contentText, joinLines, toolCallText, type TextResolver } from '../common/traceText';

// Inspect `ChatMessage` → canonical message (trace-formats.md §3.7): `{id?, role, content, source,
// model?, tool_calls?, tool_call_id?, function?, error?}`; content is a string or a list of parts.

/** Agent names for the non-model roles of an Inspect conversation. */
export const inspectRoles = { system: 'system', user: 'user', tools: 'tools' } as const;

/**
 * Resolves `attachment://<hash>` references: `.eval` samples move long strings into the sample's
 * `attachments {hash: text}` and leave the reference in place.
 */
export function attachmentResolver(sample: JsonRecord): TextResolver {
  const attachments = recordField(sample, 'attachments');
  if (!attachments) return (text) => text;
  return (text) => {
    if (!text.startsWith('attachment://')) return text;
    const resolved = attachments[text.slice('attachment://'.length)];
    return typeof resolved === 'string' ? resolved : text;
  };
}

/** Inspect tool calls are `{id, function: "name", arguments: {…}}`; OpenAI-style `{function: {name, arguments}}` is read too. */
function toolCallsText(message: JsonRecord, resolve: TextResolver): string[] {
  return (arrayField(message, 'tool_calls') ?? []).flatMap((call) => {
    if (!isRecord(call)) return [];
    const fn = call['function'];
    const name = typeof fn === 'string' ? fn : isRecord(fn) ? idText(fn['name']) : undefined;
    const args = isRecord(fn) ? fn['arguments'] : call['arguments'];
    return name === undefined ? [] : [toolCallText(name, args, resolve)];
  });
}

/** A tool message's text, with its `error.message` when the call failed. */
function toolResultText(message: JsonRecord, resolve: TextResolver): string {
  const error = recordField(message, 'error');
  const errorText = error ? stringOf(error['message']) : undefined;
  return joinLines([contentText(message['content'], resolve), errorText === undefined ? '' : `error: ${errorText}`]);
}

/** A stable key for a message that has no `id`: its role and text. */
export function messageKey(message: JsonRecord, resolve: TextResolver): string {
  return `${stringOf(message['role']) ?? ''}\u0000${contentText(message['content'], resolve)}`;
}

/**
 * One chat message → a canonical message: system / user / tool messages speak as the `system`,
 * `user` and `tools` agents; assistant messages as `assistantAgent`, with tool calls rendered
 * after the text (channel `tool_call`). Returns undefined for a value that is not a message.
 */
export function inspectChatMessage(
  value: unknown,
  assistantAgent: string,
  resolve: TextResolver,
  tokenCount?: number,
): Message | undefined {
  if (!isRecord(value)) return undefined;
  const role = stringOf(value['role']);
  switch (role) {
    case 'system':
      return { agent: inspectRoles.system, role, content: contentText(value['content'], resolve) };
    case 'user':
      return { agent: inspectRoles.user, role, content: contentText(value['content'], resolve) };
    case 'tool':
      return { agent: inspectRoles.tools, role, channel: 'tool_result', content: toolResultText(value, resolve) };
    case 'assistant': {
      const calls = toolCallsText(value, resolve);
      const content = joinLines([contentText(value['content'], resolve), ...calls]);
      return definedOnly({
        agent: assistantAgent,
        role,
        channel: calls.length > 0 ? 'tool_call' : undefined,
        content,
        tokenCount,
      });
    }
    default:
      return undefined;
  }
}

/** `output_tokens` of a model output's `usage`, when logged. */
export function outputTokens(output: JsonRecord | undefined): number | undefined {
  const usage = output ? recordField(output, 'usage') : undefined;
  return usage ? integerOf(usage['output_tokens']) : undefined;
}
