import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractAnswer, type ExtractionMode } from '../../../../src/credit/evaluator/extractAnswer';

// credit-methods.md §8 E15.
const reasoner = 'April 48, May 48/2 = 24, total 48 + 24 = 72.';
const actor = '\\boxed{72}';

describe('extractAnswer on the Natalia example (E15)', () => {
  const table: { text: string; mode: ExtractionMode; answer: string | undefined }[] = [
    { text: reasoner, mode: 'strict-boxed', answer: undefined },
    { text: reasoner, mode: 'gsm8k', answer: undefined },
    { text: reasoner, mode: 'last-number', answer: '72' },
    { text: actor, mode: 'strict-boxed', answer: '72' },
    { text: actor, mode: 'gsm8k', answer: '72' },
    { text: actor, mode: 'last-number', answer: '72' },
  ];
  for (const row of table) {
    it(`extractAnswer(${JSON.stringify(row.text)}, '${row.mode}') is ${String(row.answer)}`, () => {
      assert.equal(extractAnswer(row.text, row.mode), row.answer);
    });
  }
});

describe('extractAnswer edge cases', () => {
  const table: { name: string; text: string; mode: ExtractionMode; answer: string | undefined }[] = [
    { name: 'thousands separators', text: 'Total: 1,234,567 clips', mode: 'last-number', answer: '1234567' },
    { name: 'a dollar amount', text: 'She earns $1,200.50 per month.', mode: 'last-number', answer: '1200.5' },
    { name: 'a negative number', text: 'The temperature fell to -5', mode: 'last-number', answer: '-5' },
    { name: 'a Unicode minus', text: 'The balance is −12.', mode: 'last-number', answer: '-12' },
    { name: 'a subtraction, not a sign', text: 'so 10-3 = 7 and 10-3', mode: 'last-number', answer: '3' },
    { name: 'a decimal', text: 'Each costs 0.75 dollars', mode: 'last-number', answer: '0.75' },
    { name: 'a trailing .0', text: 'The answer is 18.0', mode: 'last-number', answer: '18' },
    { name: 'a comma list', text: 'Candidates are 5,6', mode: 'last-number', answer: '6' },
    { name: 'a number glued to a word', text: 'x2 is not a number', mode: 'last-number', answer: undefined },
    { name: 'no number at all', text: 'I do not know.', mode: 'last-number', answer: undefined },
    { name: 'the last of several #### markers', text: '#### 70\nWait, recheck.\n#### 72', mode: 'gsm8k', answer: '72' },
    { name: 'a #### marker with units', text: 'So she sold\n#### $1,000 clips\n', mode: 'gsm8k', answer: '1000' },
    { name: 'a #### marker with a negative', text: '#### -3', mode: 'gsm8k', answer: '-3' },
    { name: 'a #### marker with text', text: '#### Paris', mode: 'gsm8k', answer: 'Paris' },
    { name: 'an empty #### marker, falling back to \\boxed', text: 'So \\boxed{9}.\n####', mode: 'gsm8k', answer: '9' },
    { name: '#### ahead of \\boxed', text: '\\boxed{9}\n#### 10', mode: 'gsm8k', answer: '10' },
    { name: 'no marker and no box', text: 'The answer is 72.', mode: 'gsm8k', answer: undefined },
    {
      name: 'a fraction left as text',
      text: 'Hence \\boxed{\\frac{1}{2}}.',
      mode: 'strict-boxed',
      answer: '\\frac{1}{2}',
    },
    { name: 'the last of several boxes', text: '\\boxed{3} no, \\boxed{4}', mode: 'strict-boxed', answer: '4' },
    { name: 'a box with a dollar and a comma', text: '\\boxed{\\$1{,}000.00}', mode: 'strict-boxed', answer: '1000' },
    { name: 'a spaced box', text: '\\boxed {  42 }', mode: 'strict-boxed', answer: '42' },
    { name: 'an unclosed box', text: '\\boxed{72', mode: 'strict-boxed', answer: undefined },
    { name: 'an empty box', text: '\\boxed{}', mode: 'strict-boxed', answer: undefined },
    { name: 'a #### marker without a box', text: '#### 72', mode: 'strict-boxed', answer: undefined },
  ];
  for (const row of table) {
    it(`extractAnswer(text, '${row.mode}') handles ${row.name}`, () =>
      assert.equal(extractAnswer(row.text, row.mode), row.answer));
  }

  it('extractAnswer(text, mode, normalisation) applies the normalisation flags', () => {
    assert.equal(extractAnswer('#### 1,000', 'gsm8k', { stripThousands: false }), '1,000');
    assert.equal(extractAnswer('\\boxed{Yes}', 'strict-boxed', { foldCase: true }), 'yes');
  });
});
