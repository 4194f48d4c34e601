import { isRecord, jsonText } from './json';

// Message text from the content shapes the chat formats use: a plain string, null (an assistant
// turn that only calls tools), or a list of typed parts (OpenAI / Inspect / OTel GenAI).

/** Turns a stored string into its text, e.g. resolves an Inspect `attachment://` reference. */
export type TextResolver = (text: string) => string;

const identity: TextResolver = (text) => text;

/**
 * The text of a content value: a string as it is; null / undefined as `""`; a list of parts as
 * the text of its text parts (`{type: "text", text}` or OTel's `{type: "text", content}`) joined by
 * a newline, other parts (images, reasoning, tool calls) skipped; any other value as JSON.
 */
export function contentText(value: unknown, resolve: TextResolver = identity): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return resolve(value);
  if (!Array.isArray(value)) return jsonText(value) ?? '';
  const texts: string[] = [];
  for (const part of value) {
    const text = partText(part);
    if (text !== undefined) texts.push(resolve(text));
  }
  return texts.join('\n');
}

function partText(part: unknown): string | undefined {
  if (typeof part === 'string') return part;
  if (!isRecord(part) || (part['type'] !== undefined && part['type'] !== 'text')) return undefined;
  const text = part['text'] ?? part['content'];
  return typeof text === 'string' ? text : undefined;
}

/** One tool call as readable text: `get_user_details({"user_id":"mia_li_3668"})`. */
export function toolCallText(name: string, args: unknown, resolve: TextResolver = identity): string {
  const argsText = typeof args === 'string' ? resolve(args) : (jsonText(args) ?? '');
  return `${name}(${argsText})`;
}

/** Text and rendered tool calls of one turn, each on its own line; empty parts are left out. */
export function joinLines(lines: readonly string[]): string {
  return lines.filter((line) => line.length > 0).join('\n');
}
