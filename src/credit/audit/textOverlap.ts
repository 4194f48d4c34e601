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

/**
 * Whether `text` copies `partnerText` (credit-methods.md §5.4): `max(rougeLF1, 5-gram containment of
 * text in partnerText) ≥ threshold` (default 0.8). Tokenises each text once, and skips the quadratic
 * LCS when containment already decides or when the length ratio caps ROUGE-L F1 below the threshold
 * (`F1 ≤ 2·min/(|a| + |b|)`). Empty text never copies.
 */
export function isCopy(text: string, partnerText: string, threshold = 0.8): boolean {
  const a = wordTokens(text);
  const b = wordTokens(partnerText);
  if (containment(a, b, 5) >= threshold) return true;
  const shorter = Math.min(a.length, b.length, lcsTokenLimit);
  const longer = Math.min(Math.max(a.length, b.length), lcsTokenLimit);
  if (shorter === 0 || (2 * shorter) / (shorter + longer) < threshold) return false;
  return lcsF1(a, b) >= threshold;
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
  if (a.length < n) return 0;
  const inB = new Set(ngrams(b, n));
  const ofA = new Set(ngrams(a, n));
  let found = 0;
  for (const gram of ofA) if (inB.has(gram)) found++;
  return found / ofA.size;
}

function ngrams(tokens: readonly string[], n: number): string[] {
  const grams: string[] = [];
  for (let k = 0; k + n <= tokens.length; k++) grams.push(tokens.slice(k, k + n).join(' '));
  return grams;
}
