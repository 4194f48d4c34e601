import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseAnswer } from '../../../../src/credit/evaluator/normaliseAnswer';

describe('normaliseAnswer', () => {
  const numbers = [
    ['72', '72'],
    [' 72 ', '72'],
    ['1,000', '1000'],
    ['1{,}000', '1000'],
    ['$18', '18'],
    ['\\$18', '18'],
    ['€1,234.50', '1234.5'],
    ['72.0', '72'],
    ['72.00', '72'],
    ['72.', '72'],
    ['0.50', '0.5'],
    ['.5', '0.5'],
    ['−5', '-5'],
    ['-$1,234.50', '-1234.5'],
    ['+3', '3'],
    ['007', '7'],
    ['-0', '0'],
    ['-0.00', '0'],
  ] as const;
  for (const [raw, canonical] of numbers) {
    it(`normaliseAnswer(${JSON.stringify(raw)}) is the canonical number ${canonical}`, () =>
      assert.equal(normaliseAnswer(raw), canonical));
  }

  it('normaliseAnswer(answer, flags) keeps what a disabled flag would strip', () => {
    assert.equal(normaliseAnswer('1,000', { stripThousands: false }), '1,000');
    assert.equal(normaliseAnswer('$18', { stripCurrency: false }), '$18');
    assert.equal(normaliseAnswer('72.0', { stripTrailingZeros: false }), '72.0');
  });

  it('normaliseAnswer(text, flags) folds whitespace by default and case on request', () => {
    assert.equal(normaliseAnswer('  New   York \n'), 'New York');
    assert.equal(normaliseAnswer('New  York', { foldWhitespace: false }), 'New  York');
    assert.equal(normaliseAnswer('New York', { foldCase: true }), 'new york');
  });

  it('normaliseAnswer(text) leaves LaTeX and malformed numbers as text', () => {
    assert.equal(normaliseAnswer('\\frac{1}{2}'), '\\frac{1}{2}');
    assert.equal(normaliseAnswer('12,34'), '12,34');
    assert.equal(normaliseAnswer('1.2.3'), '1.2.3');
  });

  it('normaliseAnswer(blank) is undefined', () => {
    assert.equal(normaliseAnswer(''), undefined);
    assert.equal(normaliseAnswer(' \n\t'), undefined);
  });
});
