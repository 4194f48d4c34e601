import { count } from '../report/format';

// The word diff of two aligned messages (docs/architecture.md §3.7). Pure.

/** A run of one side's text, marked when it is not in the other side's text. */
export interface DiffSpan {
  readonly text: string;
  readonly changed: boolean;
}

/** Two texts side by side: each side's text as spans (their concatenation is the side's text). */
export interface WordDiff {
  readonly a: readonly DiffSpan[];
  readonly b: readonly DiffSpan[];
  /** Words of A not in B plus words of B not in A (0: the same text). */
  readonly changedWords: number;
  /** Why the texts were not compared word by word (each side then one changed span); null when they were. */
  readonly capped: string | null;
}

/**
 * Most word pairs compared after the common start and end are set aside: 8,000 × 8,000 words, about
 * a quarter of a second in Node; messages of a few thousand words stay well within it.
 */
export const maxWordPairs = 64_000_000;

/**
 * The words of `text`: each run of non-space with the spaces after it, leading spaces a word of
 * their own, so the words joined are the text again. Empty text has no words.
 */
export function words(text: string): string[] {
  return text.match(/^\s+|\S+\s*/g) ?? [];
}

/**
 * The word-level diff of `a` and `b`: a longest common subsequence of their {@link words}
 * (a word is equal only with the same spaces after it), the rest marked changed on its side. The
 * common start and end are set aside first; the middle is compared by Hirschberg's algorithm,
 * which keeps two rows of the table (memory linear in the words of `b`, time their product).
 * When the middle has more than `maxPairs` word pairs, the texts are not compared: each side is
 * one changed span and `capped` says why (never a guessed alignment).
 */
export function wordDiff(a: string, b: string, maxPairs = maxWordPairs): WordDiff {
  if (a === b) return { a: spans(a, false), b: spans(b, false), changedWords: 0, capped: null };
  const wa = words(a);
  const wb = words(b);
  let start = 0;
  while (start < wa.length && start < wb.length && wa[start] === wb[start]) start++;
  let end = 0;
  while (end < wa.length - start && end < wb.length - start && wa[wa.length - 1 - end] === wb[wb.length - 1 - end])
    end++;
  const midA = wa.slice(start, wa.length - end);
  const midB = wb.slice(start, wb.length - end);
  if (midA.length * midB.length > maxPairs) return cappedDiff(a, b, midA.length, midB.length, maxPairs);
  const ids = new Map<string, number>();
  const code = (list: readonly string[]): Int32Array =>
    Int32Array.from(list, (w) => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1));
  const inCommon = new Uint8Array(midA.length);
  const matchedB = new Uint8Array(midB.length);
  commonSubsequence(code(midA), code(midB), inCommon, matchedB);
  const sideA = marked(wa, start, inCommon);
  const sideB = marked(wb, start, matchedB);
  return {
    a: sideA.spans,
    b: sideB.spans,
    changedWords: sideA.changed + sideB.changed,
    capped: null,
  };
}

function cappedDiff(a: string, b: string, n: number, m: number, maxPairs: number): WordDiff {
  return {
    a: spans(a, true),
    b: spans(b, true),
    changedWords: n + m,
    capped: `too long to compare word by word (${count(n)} × ${count(m)} words differ after the common start and end; the limit is ${count(maxPairs)} word pairs): each side is shown whole, marked changed`,
  };
}

function spans(text: string, changed: boolean): DiffSpan[] {
  return text === '' ? [] : [{ text, changed }];
}

/** The words of one side as spans: the common start and end unchanged, the middle marked where not in common. */
function marked(list: readonly string[], start: number, inCommon: Uint8Array): { spans: DiffSpan[]; changed: number } {
  const out: DiffSpan[] = [];
  let changed = 0;
  let run = '';
  let runChanged = false;
  for (const [i, word] of list.entries()) {
    const middle = i - start;
    const isChanged = middle >= 0 && middle < inCommon.length && inCommon[middle] === 0;
    if (isChanged) changed++;
    if (run !== '' && isChanged !== runChanged) {
      out.push({ text: run, changed: runChanged });
      run = '';
    }
    run += word;
    runChanged = isChanged;
  }
  if (run !== '') out.push({ text: run, changed: runChanged });
  return { spans: out, changed };
}

/**
 * Marks (with 1) the words of `a` and of `b` in one longest common subsequence, by Hirschberg's
 * divide and conquer: split `a` in half, find where the best alignment crosses `b` from a forward
 * and a backward row of LCS lengths, recurse on both halves.
 */
function commonSubsequence(a: Int32Array, b: Int32Array, inA: Uint8Array, inB: Uint8Array): void {
  const stack: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (stack.length > 0) {
    const [aLo, aHi, bLo, bHi] = stack.pop() ?? [0, 0, 0, 0];
    if (aHi - aLo === 0 || bHi - bLo === 0) continue;
    if (aHi - aLo === 1) {
      const at = b.subarray(bLo, bHi).indexOf(a[aLo] ?? -1);
      if (at >= 0) {
        inA[aLo] = 1;
        inB[bLo + at] = 1;
      }
      continue;
    }
    const mid = aLo + ((aHi - aLo) >> 1);
    const forward = lcsLengths(a, aLo, mid, b, bLo, bHi, false);
    const backward = lcsLengths(a, mid, aHi, b, bLo, bHi, true);
    let split = 0;
    let best = -1;
    for (let j = 0; j <= bHi - bLo; j++) {
      const total = (forward[j] ?? 0) + (backward[j] ?? 0);
      if (total > best) {
        best = total;
        split = j;
      }
    }
    stack.push([aLo, mid, bLo, bLo + split], [mid, aHi, bLo + split, bHi]);
  }
}

/**
 * Row of LCS lengths: forward, `row[j]` = LCS(a[aLo, aHi), b[bLo, bLo + j)); backward,
 * `row[j]` = LCS(a[aLo, aHi), b[bLo + j, bHi)). Two rows of memory.
 */
function lcsLengths(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
  backward: boolean,
): Int32Array {
  const m = bHi - bLo;
  let previous = new Int32Array(m + 1);
  let current = new Int32Array(m + 1);
  for (let step = 0; step < aHi - aLo; step++) {
    const word = a[backward ? aHi - 1 - step : aLo + step];
    if (backward) {
      current[m] = 0;
      for (let j = m - 1; j >= 0; j--)
        current[j] = b[bLo + j] === word ? (previous[j + 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j + 1] ?? 0);
    } else {
      current[0] = 0;
      for (let j = 1; j <= m; j++)
        current[j] =
          b[bLo + j - 1] === word ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    }
    [previous, current] = [current, previous];
  }
  return previous;
}
