import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordDiff, words, type DiffSpan } from '../../../../src/engine/diff/wordDiff';

const text = (spans: readonly DiffSpan[]): string => spans.map((s) => s.text).join('');

test('words keeps the spaces after each word (and leading spaces), so the words joined are the text', () => {
  assert.deepEqual(words('  The answer\nis  4 '), ['  ', 'The ', 'answer\n', 'is  ', '4 ']);
  assert.deepEqual(words(''), []);
});

test('wordDiff marks the one word that changed on each side', () => {
  const diff = wordDiff('The answer is 4', 'The answer is 5');
  assert.deepEqual(diff.a, [
    { text: 'The answer is ', changed: false },
    { text: '4', changed: true },
  ]);
  assert.deepEqual(diff.b, [
    { text: 'The answer is ', changed: false },
    { text: '5', changed: true },
  ]);
  assert.equal(diff.changedWords, 2);
  assert.equal(diff.capped, null);
});

test('wordDiff: a word equals another only with the same spaces after it (hand-worked LCS = "c ")', () => {
  // A: "a " "b " "c " "d"; B: "a " "x " "c " "d " "y" → common start "a ", then LCS of the middles is "c ".
  const diff = wordDiff('a b c d', 'a x c d y');
  assert.deepEqual(diff.a, [
    { text: 'a ', changed: false },
    { text: 'b ', changed: true },
    { text: 'c ', changed: false },
    { text: 'd', changed: true },
  ]);
  assert.deepEqual(diff.b, [
    { text: 'a ', changed: false },
    { text: 'x ', changed: true },
    { text: 'c ', changed: false },
    { text: 'd y', changed: true },
  ]);
  assert.equal(diff.changedWords, 5);
});

test('wordDiff of equal, empty and one-sided texts', () => {
  assert.deepEqual(wordDiff('same text', 'same text'), {
    a: [{ text: 'same text', changed: false }],
    b: [{ text: 'same text', changed: false }],
    changedWords: 0,
    capped: null,
  });
  assert.deepEqual(wordDiff('', ''), { a: [], b: [], changedWords: 0, capped: null });
  const added = wordDiff('', 'new words');
  assert.deepEqual(added.a, []);
  assert.deepEqual(added.b, [{ text: 'new words', changed: true }]);
  assert.equal(added.changedWords, 2);
});

/** LCS length of two word lists by the full table: the oracle of the linear-memory algorithm. */
function lcsByTable(a: readonly string[], b: readonly string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      table[i]![j] = a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
  return table[a.length]![b.length]!;
}

test('wordDiff keeps a longest common subsequence (against the full table) and each side’s text, on random texts', () => {
  let seed = 11;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const vocabulary = ['x ', 'y ', 'z ', 'x\n', 'w '];
  const draw = (): string =>
    Array.from({ length: Math.floor(random() * 30) }, () => vocabulary[Math.floor(random() * 5)]).join('');
  for (let trial = 0; trial < 300; trial++) {
    const a = draw();
    const b = draw();
    const diff = wordDiff(a, b);
    assert.equal(text(diff.a), a);
    assert.equal(text(diff.b), b);
    const kept = (spans: readonly DiffSpan[]): string[] =>
      spans.filter((s) => !s.changed).flatMap((s) => words(s.text));
    assert.deepEqual(kept(diff.a), kept(diff.b), 'the unchanged words are the same sequence on both sides');
    const lcs = lcsByTable(words(a), words(b));
    assert.equal(kept(diff.a).length, lcs, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    assert.equal(diff.changedWords, words(a).length + words(b).length - 2 * lcs);
  }
});

test('wordDiff beyond its budget of word pairs compares nothing and says so; the common start and end are free', () => {
  const capped = wordDiff('keep a b tail', 'keep c d tail', 3);
  assert.deepEqual(capped.a, [{ text: 'keep a b tail', changed: true }]);
  assert.match(capped.capped ?? '', /too long to compare word by word \(2 × 2 words .* the limit is 3 word pairs\)/);
  assert.equal(wordDiff('keep a tail', 'keep c tail', 1).capped, null, '1 × 1 pair in the middle fits');
});

test('wordDiff of two 4,000-word messages with scattered edits takes well under a second', () => {
  const base = Array.from({ length: 4000 }, (_, i) => `w${String(i % 97)}`);
  const edited = base.map((w, i) => (i % 50 === 0 ? `edit${String(i)}` : w));
  const started = performance.now();
  const diff = wordDiff(base.join(' '), edited.join(' '));
  const ms = performance.now() - started;
  assert.equal(diff.changedWords, 2 * 80);
  assert.ok(ms < 1500, `${ms.toFixed(0)} ms`);
});
