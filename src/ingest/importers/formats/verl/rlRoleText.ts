/** A wire role recovered from role words left in decoded text. */
export type TextRole = 'assistant' | 'tool' | 'user';

/** One turn of a decoded multi-turn string. */
export interface RoleSegment {
  readonly role: TextRole;
  readonly content: string;
}

const roleWords: ReadonlySet<string> = new Set<TextRole>(['assistant', 'tool', 'user']);

/**
 * Splits a verl `output` decoded with `skip_special_tokens=True` into turns (trace-formats.md §2.1,
 * §7 "verl multi-turn text"): the chat-template tokens are gone, so each turn starts with a line
 * that is only its role word (`assistant`, `tool`, `user`). Splitting is a heuristic, because a
 * model may write such a line itself, so it is only attempted when the text looks like an
 * agent-loop rendering: it starts with a role line, has a `tool` line, or a `user` line followed by
 * `<tool_response>`. Otherwise the whole text is one assistant turn and `split` is false.
 *
 * Qwen chat templates (producers.md, verl): the model's `<|im_end|>` is followed directly by
 * `<|im_start|>user`, so once the special tokens are gone the role word is glued to the end of the
 * turn (`…</tool_call>user\n<tool_response>…`); such a role word is cut off first. Tool results
 * are rendered as `user` turns holding `<tool_response>` blocks: those become `tool` turns (one
 * block's wrapper is removed).
 *
 * Text before the first role line is an assistant turn; trailing newlines of each turn are dropped
 * (they separate turns); empty turns are left out (but an empty text is one empty turn).
 */
export function splitRoleText(text: string): { readonly segments: readonly RoleSegment[]; readonly split: boolean } {
  const lines = unglueRoleWords(text).split('\n');
  const looksSplit =
    lines.length > 1 &&
    (isRoleLine(lines[0] ?? '') ||
      lines.some(
        (l, i) => roleOf(l) === 'tool' || (roleOf(l) === 'user' && (lines[i + 1] ?? '').startsWith('<tool_response>')),
      ));
  if (!looksSplit) return { segments: [{ role: 'assistant', content: text }], split: false };
  const segments: RoleSegment[] = [];
  let role: TextRole = 'assistant';
  let body: string[] = [];
  const flush = (): void => {
    const content = body.join('\n').replace(/[\r\n]+$/, '');
    if (content.trim() !== '') segments.push(toolResponse(role, content));
  };
  for (const line of lines) {
    if (isRoleLine(line)) {
      flush();
      role = roleOf(line) as TextRole;
      body = [];
    } else body.push(line);
  }
  flush();
  return { segments: segments.length > 0 ? segments : [{ role: 'assistant', content: '' }], split: true };
}

function roleOf(line: string): string {
  return line.replace(/\r$/, '');
}

function isRoleLine(line: string): boolean {
  return roleWords.has(roleOf(line));
}

/** `…</tool_call>user\n` → `…</tool_call>\nuser\n`: a role word glued to the end of a tool-calling turn. */
function unglueRoleWords(text: string): string {
  return text.replace(/<\/tool_call>[ \t]*(user|tool)(\r?\n)/g, '</tool_call>\n$1$2');
}

const toolResponseBlock = /^<tool_response>\r?\n?([\s\S]*?)\r?\n?<\/tool_response>$/;

/** A `user` turn that holds only `<tool_response>` blocks is a `tool` turn; a single block loses its wrapper. */
function toolResponse(role: TextRole, content: string): RoleSegment {
  const trimmed = content.trim();
  if (role !== 'user' || !trimmed.startsWith('<tool_response>') || !trimmed.endsWith('</tool_response>'))
    return { role, content };
  const inner = toolResponseBlock.exec(trimmed)?.[1];
  const single = inner !== undefined && !inner.includes('<tool_response>');
  return { role: 'tool', content: single ? inner : trimmed };
}
