import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCopy, lcsTokenLimit, ngramContainment, rougeLF1 } from '../../../../src/credit/audit/textOverlap';
import { assertClose } from '../stats/assertClose';

const partner =
  'April sales were 48 clips. May sales were half of that, so 24 clips. Together that is 48 + 24 = 72 clips.';

describe('rougeLF1', () => {
  const table: { a: string; b: string; f1: number; why: string }[] = [
    // LCS "the cat on mat" = 4 of 6 and 6 tokens: 2·4/12.
    { a: 'the cat sat on the mat', b: 'the cat lay on a mat', f1: 2 / 3, why: 'LCS 4 of 6 + 6 tokens' },
    // LCS of "a b c d" and "b d a c" is 2 ("b d", "a c", "b c"): 2·2/8.
    { a: 'a b c d', b: 'b d a c', f1: 0.5, why: 'reordered tokens, LCS 2' },
    // LCS "48 24 72" = 3 of 5 and 3 tokens: 2·3/8.
    { a: 'so 48 + 24 is 72', b: '48, 24 → 72', f1: 0.75, why: 'punctuation ignored, LCS 3 of 5 + 3' },
    { a: 'The Cat.', b: 'the cat', f1: 1, why: 'case and punctuation ignored' },
    { a: '', b: '', f1: 0, why: 'both empty' },
    { a: 'something', b: '', f1: 0, why: 'one side empty' },
    { a: 'x y z', b: 'a b c', f1: 0, why: 'nothing shared' },
  ];
  for (const row of table) {
    it(`rougeLF1(${JSON.stringify(row.a)}, ${JSON.stringify(row.b)}) = ${row.f1.toFixed(4)} (${row.why})`, () => {
      assertClose(rougeLF1(row.a, row.b), row.f1, 1e-12);
      assertClose(rougeLF1(row.b, row.a), row.f1, 1e-12);
    });
  }

  it(`rougeLF1 keeps each side's last ${lcsTokenLimit} tokens: a unique 1000-token head before a shared 2000-token tail scores 1`, () => {
    const tail = Array.from({ length: lcsTokenLimit }, (_, k) => `w${k}`).join(' ');
    const head = Array.from({ length: 1000 }, (_, k) => `head${k}`).join(' ');
    assert.equal(rougeLF1(`${head} ${tail}`, tail), 1);
    assert.equal(rougeLF1(`${tail} ${head}`, tail), 0.5);
  });
});

describe('ngramContainment', () => {
  const table: { a: string; b: string; n?: number; value: number; why: string }[] = [
    { a: 'a b c d e f', b: 'x a b c d e y', value: 0.5, why: "1 of a's 2 5-grams" },
    { a: 'a b c', b: 'b c a b', n: 2, value: 1, why: 'bigrams ab, bc both in b' },
    { a: 'a b a b a b', b: 'a b', n: 2, value: 0.5, why: 'distinct bigrams ab, ba; only ab in b' },
    { a: 'a b c d', b: 'a b c d e f', value: 0, why: 'a shorter than n' },
    { a: 'a b c d e f', b: 'a b c', value: 0, why: 'b shorter than n' },
    { a: 'x a b c d e', b: 'a b c d e f g', value: 0.5, why: 'not symmetric: 1 of 2' },
    { a: 'a b c d e f g', b: 'x a b c d e', value: 1 / 3, why: 'not symmetric: 1 of 3' },
  ];
  for (const row of table) {
    it(`ngramContainment(${JSON.stringify(row.a)}, ${JSON.stringify(row.b)}, ${row.n ?? 5}) = ${row.value.toFixed(4)} (${row.why})`, () => {
      assertClose(ngramContainment(row.a, row.b, row.n), row.value, 1e-12);
    });
  }

  it('ngramContainment(a, b, 0 | 1.5) throws RangeError', () => {
    assert.throws(() => ngramContainment('a', 'b', 0), RangeError);
    assert.throws(() => ngramContainment('a', 'b', 1.5), RangeError);
  });
});

describe('isCopy', () => {
  it('isCopy(copy of the partner with a short preamble, partner) is true: containment 0.85, ROUGE-L 0.93', () => {
    const copy = `As you said: ${partner}`;
    assertClose(ngramContainment(copy, partner), 17 / 20, 1e-12);
    assert.equal(isCopy(copy, partner), true);
  });

  it('isCopy(paraphrase, partner) is false: ROUGE-L 0.21, no shared 5-gram', () => {
    const paraphrase = 'Natalia sold 48 in April and half as many, 24, in May; adding them gives 72 in total.';
    assert.ok(rougeLF1(paraphrase, partner) < 0.25);
    assert.equal(ngramContainment(paraphrase, partner), 0);
    assert.equal(isCopy(paraphrase, partner), false);
    assert.equal(isCopy(paraphrase, partner, 0.2), true);
  });

  it('isCopy(one copied sentence, long partner) is true by containment although ROUGE-L is low', () => {
    const sentence = 'May sales were half of that, so 24 clips.';
    assert.ok(rougeLF1(sentence, partner) < 0.8);
    assert.equal(isCopy(sentence, partner), true);
  });

  it('isCopy(short echo, partner) is false; isCopy("", partner) and isCopy(text, "") are false', () => {
    assert.equal(isCopy('Looks good. #### 72', partner), false);
    assert.equal(isCopy('', partner), false);
    assert.equal(isCopy(partner, ''), false);
  });

  it('isCopy(5000-token text, itself plus one token) is true quickly (LCS bounded to 2000 × 2000)', () => {
    const long = Array.from({ length: 5000 }, (_, k) => `w${k % 97}`).join(' ');
    const started = performance.now();
    assert.equal(isCopy(`${long} extra`, long), true);
    assert.equal(rougeLF1(long, `x ${long}`), 1);
    assert.ok(performance.now() - started < 2000);
  });
});
