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
 * agent-loop rendering: it starts with a role line, or has a `tool` line. Otherwise the whole text
 * is one assistant turn and `split` is false.
 *
 * Text before the first role line is an assistant turn; trailing newlines of each turn are dropped
 * (they separate turns); empty turns are left out (but an empty text is one empty turn).
 */
export function splitRoleText(text: string): { readonly segments: readonly RoleSegment[]; readonly split: boolean } {
  const lines = text.split('\n');
  const isRoleLine = (line: string): boolean => roleWords.has(line.replace(/\r$/, ''));
  const looksSplit = lines.length > 1 && (isRoleLine(lines[0] ?? '') || lines.some((l) => l.replace(/\r$/, '') === 'tool'));
  if (!looksSplit) return { segments: [{ role: 'assistant', content: text }], split: false };
  const segments: RoleSegment[] = [];
  let role: TextRole = 'assistant';
  let body: string[] = [];
  const flush = (): void => {
    const content = body.join('\n').replace(/[\r\n]+$/, '');
    if (content.trim() !== '') segments.push({ role, content });
  };
  for (const line of lines) {
    if (isRoleLine(line)) {
      flush();
      role = line.replace(/\r$/, '') as TextRole;
      body = [];
    } else body.push(line);
  }
  flush();
  return { segments: segments.length > 0 ? segments : [{ role: 'assistant', content: '' }], split: true };
}
