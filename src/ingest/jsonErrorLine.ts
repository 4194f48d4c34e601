/**
 * The 1-based line of a `JSON.parse` error inside a multi-line text, from the `position N` that V8
 * puts in its message; 1 when the message carries no position.
 */
export function jsonErrorLine(error: unknown, text: string): number {
  const match = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (!match) return 1;
  const position = Math.min(Number(match[1]), text.length);
  let line = 1;
  for (let i = 0; i < position; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
