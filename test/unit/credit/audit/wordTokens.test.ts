import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordTokens } from '../../../../src/credit/audit/wordTokens';

describe('wordTokens', () => {
  const table: { text: string; tokens: string[] }[] = [
    { text: '', tokens: [] },
    { text: '✓ … #### 👍', tokens: [] },
    { text: 'Checking step 1: 3 × 12 = 36 ✓', tokens: ['checking', 'step', '1', '3', '12', '36'] },
    { text: "Don't STOP; it’s fine", tokens: ["don't", 'stop', "it's", 'fine'] },
    { text: '3.5 + 1,000 = 1003.5.', tokens: ['3.5', '1,000', '1003.5'] },
    { text: 'x,y and end.Next', tokens: ['x', 'y', 'and', 'end', 'next'] },
    { text: '\\boxed{72}', tokens: ['boxed', '72'] },
    { text: 'Größe café ñandú', tokens: ['größe', 'café', 'ñandú'] },
    { text: '我同意。', tokens: ['我', '同', '意'] },
    { text: 'Ｆｕｌｌ ｗｉｄｔｈ ４２', tokens: ['full', 'width', '42'] },
  ];
  for (const row of table) {
    it(`wordTokens(${JSON.stringify(row.text)}) splits on whitespace and punctuation, lower-cased`, () => {
      assert.deepEqual(wordTokens(row.text), row.tokens);
    });
  }
});
