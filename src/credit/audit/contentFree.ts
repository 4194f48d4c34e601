import { wordTokens } from './wordTokens';

/**
 * Bare final-answer markers at the end of a message: `#### 42` (GSM8K) or `\boxed{42}` (one level
 * of nested braces, optionally inside `$…$`), with trailing punctuation. They restate an answer and
 * carry no reasoning, so they are not content tokens.
 */
const trailingMarker = /(?:(?<!#)#{4}[^\n]*|\$*\\boxed\s*\{(?:[^{}]|\{[^{}]*\})*\}\$*)[\s.!]*$/u;

/**
 * Words a content-free reply is made of: agreement ("I agree", "Agreed", "Sounds good", "LGTM",
 * "Correct.", "No changes needed", "That's right, the answer is …") and its fillers, in English and
 * a few common forms in French, German, Spanish and Chinese (one character per token, see
 * {@link wordTokens}: "我同意你的答案").
 */
const agreementVocabulary = new Set(
  [
    "i i'm i've we agree agreed agrees concur looks look good great fine perfect nice to me us lgtm no changes change needed",
    "necessary required correct correctly right exactly sounds yes yep yeah ok okay that that's this is it it's all the answer",
    'solution result reasoning work your with you same here confirmed confirm confirms verified verify nothing add approve',
    'approved well done fully completely totally also both and so too as above final seems seem checks out entirely indeed',
    'of course thanks thank checked has have been be a an from my side on agreement in full',
    "je suis d'accord oui c'est exact exacte parfait correcte juste réponse est bon tout à fait ich stimme zu einverstanden richtig korrekt gut ja sieht aus",
    'keine änderungen genau estoy de acuerdo correcto correcta sí bien perfecto exacto la respuesta es',
    '我 同 意 你 的 答 案 正 确 对 好 没 问 题 是 赞 成 也 认 为 这 个 结 果 很',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Number of word tokens in `text` (credit-methods.md §5.4 emptiness): maximal runs of letters, marks
 * and digits separated by whitespace or punctuation; one token per Han / Hiragana / Katakana
 * character. Empty or punctuation-only text → 0. See {@link wordTokens}.
 */
export function tokenCount(text: string): number {
  return wordTokens(text).length;
}

/**
 * Whether a message is content-free (credit-methods.md §5.4 emptiness): it has at most `minTokens`
 * content tokens (default 5), or it is an agreement pattern: "I agree", "Looks good", "LGTM", "No
 * changes", "Agreed", "Correct.", "Sounds good", combinations such as "Looks good to me, no changes
 * needed", optionally closing with "the answer is 42", and a few French, German, Spanish and Chinese
 * forms. Content tokens are the word tokens outside a trailing bare final-answer marker (`#### 42`,
 * `\boxed{42}`), so the echo "Looks good. #### 45" is content-free while "Checking step 1:
 * 3 × 12 = 36 ✓ … #### 43" (six content tokens) is not. Other text is judged by its token count alone
 * (Han / Kana count one token per character); restating the question (§5.4) needs the question, so
 * it is not detected here. Linear in the text length. `minTokens` must be a non-negative integer (a
 * programmer error throws RangeError).
 */
export function isContentFree(text: string, options: { readonly minTokens?: number } = {}): boolean {
  return contentFreeTokens(text, wordTokens(text), options.minTokens);
}

/** {@link isContentFree} given `text`'s {@link wordTokens} (tokenised again only when a trailing marker is cut). */
export function contentFreeTokens(text: string, tokensOfText: readonly string[], minTokens = 5): boolean {
  if (!Number.isSafeInteger(minTokens) || minTokens < 0)
    throw new RangeError(`minTokens must be a non-negative integer, got ${minTokens}`);
  const stripped = stripFinalAnswerMarkers(text);
  const tokens = stripped === text ? tokensOfText : wordTokens(stripped);
  return tokens.length <= minTokens || isAgreementOnly(tokens);
}

/** `text` without its trailing bare final-answer markers (several, as in "\boxed{42} #### 42"). */
function stripFinalAnswerMarkers(text: string): string {
  let rest = text;
  for (;;) {
    const match = trailingMarker.exec(rest);
    if (match === null) return rest;
    rest = rest.slice(0, match.index);
  }
}

/** All tokens are agreement vocabulary, once a closing "answer (is) X" is set aside. */
function isAgreementOnly(tokens: readonly string[]): boolean {
  const answerAt = tokens.lastIndexOf('answer');
  const closesWithAnswer =
    answerAt >= 0 &&
    (answerAt === tokens.length - 2 || (answerAt === tokens.length - 3 && tokens[answerAt + 1] === 'is'));
  const body = closesWithAnswer ? tokens.slice(0, answerAt) : tokens;
  return body.every((token) => agreementVocabulary.has(token));
}
