import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../../../src/core/mulberry32';
import { contentFreeTokens, isContentFree } from '../../../../src/credit/audit/contentFree';
import { episodeActivity } from '../../../../src/credit/audit/episodeActivity';
import { NgramVocabulary, ngramContainment, tokenizedCopy } from '../../../../src/credit/audit/textOverlap';
import { wordTokens } from '../../../../src/credit/audit/wordTokens';

// The audit's fast paths (ASCII tokenising, tokens computed once per message, numeric n-gram keys)
// against the definitions they replace, on seeded random texts: same tokens, same containment,
// same verdicts. The reference code below is the credit-methods.md §5.4 definition written plainly.

const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const token = /[\p{L}\p{M}\p{N}]+(?:(?:'|(?<=\p{N})[.,](?=\p{N}))[\p{L}\p{M}\p{N}]+)*/gu;
const referenceTokens = (text: string): string[] =>
  text
    .normalize('NFKC')
    .replace(/\u2019/g, "'")
    .toLowerCase()
    .replace(unspaced, ' $& ')
    .match(token) ?? [];

function referenceContainment(a: readonly string[], b: readonly string[], n: number): number {
  const grams = (t: readonly string[]): Set<string> => {
    const out = new Set<string>();
    for (let k = 0; k + n <= t.length; k++) out.add(t.slice(k, k + n).join(' '));
    return out;
  };
  if (a.length < n) return 0;
  const inB = grams(b);
  const ofA = grams(a);
  return [...ofA].filter((g) => inB.has(g)).length / ofA.size;
}

const pieces = [
  'The',
  'answer',
  'is',
  '3.5',
  '1,000',
  "don't",
  'x',
  'Y',
  '42',
  '.',
  ',',
  '!',
  '#### 7',
  '\\boxed{9}',
  '  ',
  '\n',
  'I agree',
  'LGTM',
  'café',
  'ﬁne',
  '我同意',
  'é',
  '’s',
  'ＡＢＣ',
  '3 × 12 = 36 ✓',
  '-',
  '…',
];

function randomText(random: () => number, words: number, asciiOnly: boolean): string {
  const pool = asciiOnly
    ? pieces.filter((p) => Array.from({ length: p.length }, (_, i) => p.charCodeAt(i)).every((c) => c < 128))
    : pieces;
  return Array.from({ length: words }, () => pool[Math.floor(random() * pool.length)] ?? '').join(
    random() < 0.5 ? ' ' : '',
  );
}

describe('audit fast paths equal the definitions', () => {
  it('wordTokens equals the Unicode definition on 20,000 random ASCII and mixed texts', () => {
    const random = mulberry32(15);
    for (let i = 0; i < 20000; i++) {
      const text = randomText(random, 1 + Math.floor(random() * 30), i % 2 === 0);
      assert.deepEqual(wordTokens(text), referenceTokens(text), JSON.stringify(text));
    }
  });

  it('n-gram containment equals the joined-string definition, small and large vocabularies', () => {
    const random = mulberry32(16);
    for (let i = 0; i < 500; i++) {
      // Up to 70,000 distinct tokens: ids past 0xF000 take two UTF-16 units in a key.
      const vocabulary = i % 25 === 0 ? 70_000 : i % 5 === 0 ? 3000 : 1 + Math.floor(random() * 12);
      const words = (n: number): string[] => Array.from({ length: n }, () => `w${Math.floor(random() * vocabulary)}`);
      const a = words(Math.floor(random() * 40));
      const b = i % 3 === 0 ? [...words(5), ...a.slice(2), ...words(3)] : words(Math.floor(random() * 2000));
      for (const n of [1, 2, 5]) {
        const expected = referenceContainment(a, b, n);
        assert.equal(ngramContainment(a.join(' '), b.join(' '), n), expected, `n=${String(n)} case ${String(i)}`);
      }
    }
  });

  it('a copy verdict from tokens equals the one from texts', () => {
    const random = mulberry32(17);
    for (let i = 0; i < 300; i++) {
      const b = randomText(random, 40, false);
      const a = i % 2 === 0 ? b.slice(Math.floor(random() * 20)) : randomText(random, 40, true);
      const expected = referenceContainment(referenceTokens(a), referenceTokens(b), 5) >= 0.8;
      const vocabulary = new NgramVocabulary();
      if (expected)
        assert.equal(tokenizedCopy(vocabulary.tokenize(a), vocabulary.tokenize(b)), true, JSON.stringify([a, b]));
    }
  });

  it('contentFreeTokens equals isContentFree, with and without a trailing answer marker', () => {
    for (const text of [
      'Looks good. #### 45',
      'I agree, the answer is 7',
      'Checking step 1: 3 × 12 = 36 ✓ #### 43',
      '',
    ]) {
      assert.equal(contentFreeTokens(text, wordTokens(text)), isContentFree(text), text);
    }
    assert.throws(() => contentFreeTokens('x', ['x'], -1), RangeError);
  });

  it('episodeActivity counts a verbatim copy of a partner and an agreement reply', () => {
    const plan = 'First add 48 and 24 to get 72, then check the units of the clips sold in May.';
    const activity = episodeActivity(
      [
        { agent: 0, content: plan },
        { agent: 1, content: plan },
        { agent: 2, content: 'Looks good to me. #### 72' },
      ],
      3,
      '72',
    );
    assert.deepEqual(
      activity.map((a) => [a.copiedMessages, a.emptyMessages, a.finalAnswerFirst]),
      [
        [0, 0, true],
        [1, 0, false],
        [0, 1, false],
      ],
    );
  });
});
