import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isContentFree, tokenCount } from '../../../../src/credit/audit/contentFree';

describe('tokenCount', () => {
  const table: [string, number][] = [
    ['', 0],
    ['Looks good. #### 45', 3],
    ['3 × 12 = 36 ✓', 3],
    ["don't stop", 2],
    ['3.5 + 1,000', 2],
    ['我同意', 3],
    ['Je suis d’accord.', 3],
  ];
  for (const [text, count] of table) {
    it(`tokenCount(${JSON.stringify(text)}) is ${count}`, () => assert.equal(tokenCount(text), count));
  }
});

describe('isContentFree', () => {
  const contentFree = [
    'I agree',
    'Looks good',
    'LGTM!',
    'No changes.',
    'Agreed.',
    'Correct.',
    'Sounds good! \\boxed{42}',
    'Looks good. #### 45',
    '',
    '👍',
    // Ten tokens, but all agreement: the pattern, not the count, decides.
    'Looks good to me, I agree, no changes needed. #### 45',
    'I agree with your reasoning; the final answer is 45.',
    "That's correct, I have checked it and the solution is right. $\\boxed{\\frac{1}{2}}$",
    '我同意你的答案。',
    'Je suis d’accord.',
    'Ich stimme zu, sieht gut aus, keine Änderungen.',
    'Estoy de acuerdo, la respuesta es correcta.',
  ];
  for (const text of contentFree) {
    it(`isContentFree(${JSON.stringify(text)}) is true`, () => assert.equal(isContentFree(text), true));
  }

  const withContent = [
    'Checking step 1: 3 × 12 = 36 ✓ … #### 43',
    'No, the total is wrong: 48 + 24 = 72, not 70. #### 72',
    'I agree with step 1, but step 2 should halve 48, giving 24. #### 72',
    'Das Ergebnis ist falsch, weil 48 geteilt durch 2 gleich 24 ist. #### 72',
    '因为四月卖了四十八个，五月卖了一半，所以一共七十二个。',
    'Затем сложим апрель и май: 48 плюс 24 равно 72.',
  ];
  for (const text of withContent) {
    it(`isContentFree(${JSON.stringify(text)}) is false`, () => assert.equal(isContentFree(text), false));
  }

  it('isContentFree(text, {minTokens}) moves the count threshold: 7 tokens are content at 5, content-free at 7', () => {
    const text = 'Add 48 and 24 to get 72';
    assert.equal(isContentFree(text), false);
    assert.equal(isContentFree(text, { minTokens: 7 }), true);
    assert.equal(isContentFree('Correct.', { minTokens: 0 }), true);
  });

  it('isContentFree(very long message) decides a 1 MB reasoning message (false) and a long echo (true) in well under a second', () => {
    const reasoning = 'April 48 clips, May 48 / 2 = 24 clips, total 72. '.repeat(20_000) + '#### 72';
    const echo = 'I agree. Looks good. '.repeat(20_000) + '#### 72';
    const started = performance.now();
    assert.equal(isContentFree(reasoning), false);
    assert.equal(isContentFree(echo), true);
    assert.ok(performance.now() - started < 1000);
  });

  it('isContentFree(text, {minTokens: -1 | 2.5}) throws RangeError', () => {
    assert.throws(() => isContentFree('ok', { minTokens: -1 }), RangeError);
    assert.throws(() => isContentFree('ok', { minTokens: 2.5 }), RangeError);
  });
});
