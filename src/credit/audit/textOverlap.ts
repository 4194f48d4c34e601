import { wordTokens } from './wordTokens';

/**
 * Size guard of {@link rougeLF1}: each side keeps only its last `lcsTokenLimit` tokens, so one
 * comparison costs at most 2000 × 2000 cell updates (about 10 ms).
 */
export const lcsTokenLimit = 2000;

/**
 * ROUGE-L F1 of two texts (credit-methods.md §5.4 copying): with `L` the length of the longest common
 * subsequence of their word tokens ({@link wordTokens}: NFKC, lower-cased), recall `L/|b|`,
 * precision `L/|a|` and F1 `2L/(|a| + |b|)`, in [0, 1] and symmetric. Either side empty → 0.
 * O(|a|·|b|) time and O(|b|) memory; each side is first truncated to its last {@link lcsTokenLimit}
 * tokens (the end of a message is where a copied conclusion sits), so longer texts are scored on
 * their tails only.
 */
export function rougeLF1(a: string, b: string): number {
  return lcsF1(wordTokens(a), wordTokens(b));
}

/**
 * n-gram containment of `a` in `b` (Broder's containment; credit-methods.md §5.4 copying): the
 * share of `a`'s distinct word n-grams that also occur in `b`, in [0, 1]. Not symmetric: a short
 * message copied out of a long one scores 1. `a` shorter than `n` tokens → 0. Linear time (hashing),
 * no size guard. `n` (default 5) must be a positive integer (a programmer error throws RangeError).
 */
export function ngramContainment(a: string, b: string, n = 5): number {
  return containment(wordTokens(a), wordTokens(b), n);
}

/** A text split into word tokens, with its distinct 5-gram keys (from one {@link NgramVocabulary}). */
export interface TokenizedText {
  readonly tokens: readonly string[];
  readonly grams: ReadonlySet<string>;
}

/**
 * Token ids shared by the texts of one comparison (or one episode), so that n-gram keys built at
 * different times compare equal exactly when the n-grams do. A key is the n ids as UTF-16 units, in
 * a prefix-free code (one unit below 0xF000, else two): short to hash, and no joined strings.
 */
export class NgramVocabulary {
  private readonly ids = new Map<string, number>();

  /** `text`'s tokens and 5-gram keys. */
  tokenize(text: string): TokenizedText {
    return this.ofTokens(wordTokens(text));
  }

  ofTokens(tokens: readonly string[]): TokenizedText {
    return { tokens, grams: this.keys(tokens, 5) };
  }

  /** The distinct n-gram keys of `tokens`. */
  keys(tokens: readonly string[], n: number): Set<string> {
    const units = this.units(tokens);
    const grams = new Set<string>();
    for (let k = 0; k + n <= tokens.length; k++) {
      let key = '';
      for (let j = k; j < k + n; j++) key += units[j] ?? '';
      grams.add(key);
    }
    return grams;
  }

  private units(tokens: readonly string[]): string[] {
    return tokens.map((token) => {
      let id = this.ids.get(token);
      if (id === undefined) this.ids.set(token, (id = this.ids.size));
      return id < 0xf000 ? String.fromCharCode(id) : String.fromCharCode(0xf000 + (id >>> 16), id & 0xffff);
    });
  }
}

/** Share of `a`'s n-gram keys found in `b` (0 when `a` has none). */
function setContainment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0) return 0;
  let found = 0;
  for (const gram of a) if (b.has(gram)) found++;
  return found / a.size;
}

/**
 * Whether `text` copies `partnerText` (credit-methods.md §5.4): `max(rougeLF1, 5-gram containment of
 * text in partnerText) ≥ threshold` (default 0.8). Tokenises each text once, and skips the quadratic
 * LCS when containment already decides or when the length ratio caps ROUGE-L F1 below the threshold
 * (`F1 ≤ 2·min/(|a| + |b|)`). Empty text never copies.
 */
export function isCopy(text: string, partnerText: string, threshold = 0.8): boolean {
  const vocabulary = new NgramVocabulary();
  return tokenizedCopy(vocabulary.tokenize(text), vocabulary.tokenize(partnerText), threshold);
}

/** {@link isCopy} on tokenised texts of one vocabulary (the audit tokenises each message once). */
export function tokenizedCopy(a: TokenizedText, b: TokenizedText, threshold = 0.8): boolean {
  if (setContainment(a.grams, b.grams) >= threshold) return true;
  const shorter = Math.min(a.tokens.length, b.tokens.length, lcsTokenLimit);
  const longer = Math.min(Math.max(a.tokens.length, b.tokens.length), lcsTokenLimit);
  if (shorter === 0 || (2 * shorter) / (shorter + longer) < threshold) return false;
  return lcsF1(a.tokens, b.tokens) >= threshold;
}

function lcsF1(tokensA: readonly string[], tokensB: readonly string[]): number {
  const a = tokensA.slice(-lcsTokenLimit);
  const b = tokensB.slice(-lcsTokenLimit);
  if (a.length === 0 || b.length === 0) return 0;
  return (2 * lcsLength(a, b)) / (a.length + b.length);
}

/** Longest-common-subsequence length by the two-row dynamic programme over integer token ids. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  const ids = new Map<string, number>();
  const id = (token: string): number => ids.get(token) ?? ids.set(token, ids.size).size - 1;
  const x = Int32Array.from(a, id);
  const y = Int32Array.from(b, id);
  let previous = new Int32Array(y.length + 1);
  let current = new Int32Array(y.length + 1);
  for (const token of x) {
    for (let j = 1; j <= y.length; j++) {
      current[j] = token === y[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    }
    [previous, current] = [current, previous];
  }
  return previous[y.length] ?? 0;
}

function containment(a: readonly string[], b: readonly string[], n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const vocabulary = new NgramVocabulary();
  return setContainment(vocabulary.keys(a, n), vocabulary.keys(b, n));
}
