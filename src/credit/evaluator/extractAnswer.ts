import { normaliseAnswer, type AnswerNormalisation } from './normaliseAnswer';

/**
 * How a final answer is read from a message (credit-methods.md §6.2, E15):
 * `strict-boxed` needs `\boxed{…}`; `gsm8k` reads the last `#### N`, else `\boxed{…}`;
 * `last-number` (lenient) takes the last number anywhere in the text.
 */
export type ExtractionMode = 'strict-boxed' | 'gsm8k' | 'last-number';

// A number token: optional sign (not after a word character, so "10-3" reads 3), optional currency,
// digits with optional thousands groups and decimals. A sentence's final "." is not a decimal point.
const numberToken = /(?<![\w.])(?:[-\u2212](?=[$€£¥]?\d))?[$€£¥]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?/gu;

/**
 * The normalised final answer of `text` under `mode`, or undefined when there is none (E15: the
 * Reasoner's "… total 48 + 24 = 72." has no answer under `strict-boxed` and "72" under
 * `last-number`).
 *
 * * `strict-boxed`: the content of the **last** `\boxed{…}` (nested braces balanced), normalised;
 *   `\boxed{\frac{1}{2}}` gives the text `\frac{1}{2}`. An unclosed or empty box is no answer.
 * * `gsm8k`: the **last** `####` marker; its answer is the first number on the rest of that line
 *   ("#### $1,000 clips" → "1000"), else the rest of the line as text; when there is no marker or
 *   it is followed by nothing, falls back to `\boxed{…}`.
 * * `last-number`: the last number token of the text (thousands groups, decimals, a leading `-` or
 *   `−` not attached to a preceding word or digit).
 *
 * Normalisation (Unicode minus, currency, thousands separators, trailing zeros, case and
 * whitespace folding) follows `normalisation` (see {@link normaliseAnswer}).
 */
export function extractAnswer(
  text: string,
  mode: ExtractionMode,
  normalisation?: AnswerNormalisation,
): string | undefined {
  switch (mode) {
    case 'strict-boxed':
      return boxedAnswer(text, normalisation);
    case 'gsm8k':
      return markedAnswer(text, normalisation) ?? boxedAnswer(text, normalisation);
    case 'last-number':
      return lastNumber(text, normalisation);
  }
}

function boxedAnswer(text: string, normalisation: AnswerNormalisation | undefined): string | undefined {
  const content = lastBoxedContent(text);
  return content === undefined ? undefined : normaliseAnswer(content, normalisation);
}

function markedAnswer(text: string, normalisation: AnswerNormalisation | undefined): string | undefined {
  const marker = text.lastIndexOf('####');
  if (marker < 0) return undefined;
  const line = text.slice(marker + 4).split(/\r?\n/, 1)[0] ?? '';
  const number = line.match(numberToken)?.[0];
  return normaliseAnswer(number ?? line, normalisation);
}

function lastNumber(text: string, normalisation: AnswerNormalisation | undefined): string | undefined {
  const numbers = text.match(numberToken);
  const last = numbers?.[numbers.length - 1];
  return last === undefined ? undefined : normaliseAnswer(last, normalisation);
}

/** The content of the last balanced `\boxed{…}`, or undefined. */
function lastBoxedContent(text: string): string | undefined {
  const opener = /\\boxed\s*\{/g;
  let content: string | undefined;
  for (let match = opener.exec(text); match !== null; match = opener.exec(text)) {
    const start = match.index + match[0].length;
    const end = closingBrace(text, start);
    if (end !== undefined) content = text.slice(start, end);
  }
  return content;
}

function closingBrace(text: string, start: number): number | undefined {
  let depth = 1;
  for (let k = start; k < text.length; k++) {
    const ch = text[k];
    if (ch === '\\') k++;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return k;
  }
  return undefined;
}
