import type { ToolCallView } from '../../protocol/episodePanel';
import { parsedJson } from './parsedJson';

// Importers render each tool call of a turn on its own line as `name(arguments JSON)`
// (src/ingest/importers/formats/common/traceText.ts toolCallText): read them back as structured
// calls, so the view can show arguments as keys and values instead of a JSON line.

/** A tool name as the importers write it, then the arguments in parentheses up to the end of the line. */
const callLine = /^([A-Za-z_][\w.:/-]{0,127})\((.*)\)$/s;

/**
 * The tool calls in a `tool_call` message's text: every line that reads `name(arguments)`, with
 * the arguments parsed as JSON when they are (else kept as text). Lines of prose are skipped.
 */
export function toolCallsOf(content: string): ToolCallView[] {
  const calls: ToolCallView[] = [];
  for (const line of content.split('\n')) {
    const match = callLine.exec(line);
    if (!match) continue;
    const [, name = '', argsText = ''] = match;
    const args = argsText.trim() === '' ? {} : parsedJson(argsText);
    // A prose line like "note(see above)" is no call: the importers always write JSON arguments.
    if (args === undefined) continue;
    calls.push({ name, args, line });
  }
  return calls;
}

/** A `tool_result` message's text as JSON, when it is an object or an array; undefined otherwise. */
export function toolResultOf(content: string): unknown {
  const text = content.trim();
  if (!(text.startsWith('{') && text.endsWith('}')) && !(text.startsWith('[') && text.endsWith(']'))) return undefined;
  return parsedJson(text);
}
