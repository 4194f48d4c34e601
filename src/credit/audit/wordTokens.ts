/**
 * Word tokens for the behavioural audit (credit-methods.md §5.4): emptiness, copying and
 * final-answer attribution all count and compare the same tokens.
 */

/**
 * Character classes of the tokeniser (numbers, so a Uint8Array can cache them): not yet seen, not
 * part of a word, a digit (\p{N}), a letter or mark (\p{L}, \p{M}), and Han, Hiragana or Katakana
 * (a token of its own, never joined to a neighbour).
 */
const CharClass = { Unknown: 0, Other: 1, Digit: 2, Letter: 3, Unspaced: 4 } as const;
type CharClass = (typeof CharClass)[keyof typeof CharClass];

const digitPattern = /^\p{N}$/u;
const letterPattern = /^[\p{L}\p{M}]$/u;
const unspacedPattern = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
/** Classes of the Basic Multilingual Plane, filled on first sight; astral code points in a map. */
const bmpClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, CharClass>();

/** The class of one code point, from the Unicode properties the first time it is seen. */
function classOf(cp: number): CharClass {
  if (cp < 0x10000) {
    const known = (bmpClasses[cp] ?? CharClass.Unknown) as CharClass;
    if (known !== CharClass.Unknown) return known;
    const found = propertyClass(cp);
    bmpClasses[cp] = found;
    return found;
  }
  let found = astralClasses.get(cp);
  if (found === undefined) astralClasses.set(cp, (found = propertyClass(cp)));
  return found;
}

function propertyClass(cp: number): CharClass {
  const char = String.fromCodePoint(cp);
  if (unspacedPattern.test(char)) return CharClass.Unspaced;
  if (digitPattern.test(char)) return CharClass.Digit;
  return letterPattern.test(char) ? CharClass.Letter : CharClass.Other;
}

const isWord = (c: CharClass): boolean => c === CharClass.Digit || c === CharClass.Letter;
const apostrophe = 39;
const period = 46;
const comma = 44;

/**
 * The word tokens of `text`, NFKC-normalised and lower-cased, in order (credit-methods.md §5.4).
 * Tokens are maximal runs of letters, marks and digits; whitespace, punctuation, symbols and emoji
 * separate them and are dropped ("3 × 12 = 36 ✓" → `3`, `12`, `36`). An apostrophe between letters
 * stays inside the token ("don't", "d'accord"), and so do `.` and `,` between digits ("3.5",
 * "1,000"), so numbers and contractions are one token each. Han, Hiragana and Katakana characters
 * count one token each, because those scripts put no spaces between words; other unspaced scripts
 * (Thai, Lao, …) count one token per run. Empty or symbol-only text gives `[]`.
 *
 * One scan over the code points (the same tokens as the pattern
 * `[\p{L}\p{M}\p{N}]+(?:(?:'|(?<=\p{N})[.,](?=\p{N}))[\p{L}\p{M}\p{N}]+)*` after spacing out the
 * unspaced scripts, at a fraction of its cost). Linear in the length of `text`.
 */
export function wordTokens(text: string): string[] {
  const s = text
    .normalize('NFKC')
    .replace(/\u2019/g, "'")
    .toLowerCase();
  const tokens: string[] = [];
  let start = -1;
  let previous: CharClass = CharClass.Other;
  for (let i = 0; i < s.length;) {
    const unit = s.charCodeAt(i);
    const cp = unit >= 0xd800 && unit <= 0xdbff ? (s.codePointAt(i) ?? unit) : unit;
    const width = cp > 0xffff ? 2 : 1;
    const cls = classOf(cp);
    if (cls === CharClass.Unspaced) {
      if (start >= 0) tokens.push(s.slice(start, i));
      tokens.push(s.slice(i, i + width));
      start = -1;
    } else if (isWord(cls)) {
      if (start < 0) start = i;
    } else if (start >= 0 && !joins(s, i, cp, previous)) {
      tokens.push(s.slice(start, i));
      start = -1;
    }
    previous = cls;
    i += width;
  }
  if (start >= 0) tokens.push(s.slice(start));
  return tokens;
}

/** Whether the separator `cp` at `i` stays inside the current token: `'` before a word character, `.`/`,` between digits. */
function joins(s: string, i: number, cp: number, previous: CharClass): boolean {
  if (cp !== apostrophe && cp !== period && cp !== comma) return false;
  const next = classOf(s.codePointAt(i + 1) ?? 32);
  if (cp === apostrophe) return isWord(next);
  return previous === CharClass.Digit && next === CharClass.Digit;
}
