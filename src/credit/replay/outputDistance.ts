import { wordTokens } from '../audit/wordTokens';

/**
 * How far a replayed output is from the output it is compared with (credit-methods.md §3.17,
 * "Replayed output influence"): `1 − |A ∩ B| / |A ∪ B|` over the two texts' distinct word tokens
 * (`wordTokens`: NFKC, lower-cased), in [0, 1]. 0: the same words (order and repetition aside);
 * 1: no word in common. Two empty texts are at 0; an empty and a non-empty one at 1. Symmetric.
 */
export function tokenSetDistance(a: string, b: string): number {
  const left = new Set(wordTokens(a));
  const right = new Set(wordTokens(b));
  if (left.size === 0 && right.size === 0) return 0;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared++;
  return 1 - shared / (left.size + right.size - shared);
}
