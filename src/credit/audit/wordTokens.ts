/**
 * Word tokens for the behavioural audit (credit-methods.md §5.4): emptiness, copying and
 * final-answer attribution all count and compare the same tokens.
 */

/** Scripts written without spaces between words: every character is its own token. */
const unspacedScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

/**
 * A run of letters, combining marks and digits. An apostrophe between letters stays inside the token
 * ("don't", "d'accord"), and so do `.` and `,` between digits ("3.5", "1,000"), so numbers and
 * contractions are one token each.
 */
const wordToken = /[\p{L}\p{M}\p{N}]+(?:(?:'|(?<=\p{N})[.,](?=\p{N}))[\p{L}\p{M}\p{N}]+)*/gu;

/**
 * The word tokens of `text`, NFKC-normalised and lower-cased, in order (credit-methods.md §5.4).
 * Tokens are maximal runs of letters, marks and digits; whitespace, punctuation, symbols and emoji
 * separate them and are dropped ("3 × 12 = 36 ✓" → `3`, `12`, `36`). Han, Hiragana and Katakana
 * characters count one token each, because those scripts put no spaces between words; other
 * unspaced scripts (Thai, Lao, …) count one token per run. Empty or symbol-only text gives `[]`.
 * Linear in the length of `text`.
 */
export function wordTokens(text: string): string[] {
  const normalised = text
    .normalize('NFKC')
    .replace(/\u2019/g, "'")
    .toLowerCase()
    .replace(unspacedScript, ' $& ');
  return normalised.match(wordToken) ?? [];
}
