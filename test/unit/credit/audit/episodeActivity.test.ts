import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { episodeActivity, type ActivityMessage } from '../../../../src/credit/audit/episodeActivity';

const solution = 'April is 48 clips. May is half of 48, which is 24 clips. Total 48 + 24 = 72 clips. #### 72';

/** Planner 0, Solver 1, Verifier 2 on E15's GSM8K problem (gold 72). */
const transcript: ActivityMessage[] = [
  { agent: 0, content: 'Plan: compute April sales, then May sales as half of April, then add both months together.' },
  { agent: 1, content: solution },
  // Copies the most recent message of another agent (the Solver's), with a two-word preamble.
  { agent: 2, content: `I agree. ${solution}` },
  // Content-free; compared with the Solver's message (the Verifier's own is not a partner's).
  { agent: 2, content: 'Looks good. #### 72' },
  { agent: 1, content: 'Thanks.' },
];

describe('episodeActivity', () => {
  it('episodeActivity(3-agent transcript, 3, "72") counts messages, tokens, content-free and copied messages; the Solver states 72 first', () => {
    // Tokens: plan 16; solution 19 (april is 48 clips may is half of 48 which is 24 clips total 48 24 72 clips 72);
    // Solver 19 + "thanks" 1; Verifier "i agree" 2 + 19 + "looks good 72" 3.
    assert.deepEqual(episodeActivity(transcript, 3, '72'), [
      { messages: 1, tokens: 16, emptyMessages: 0, copiedMessages: 0, finalAnswerFirst: false },
      { messages: 2, tokens: 20, emptyMessages: 1, copiedMessages: 0, finalAnswerFirst: true },
      { messages: 2, tokens: 24, emptyMessages: 1, copiedMessages: 1, finalAnswerFirst: false },
    ]);
  });

  it('episodeActivity(transcript) without a final answer marks no agent as first', () => {
    assert.ok(episodeActivity(transcript, 3).every((a) => !a.finalAnswerFirst));
    assert.ok(episodeActivity(transcript, 3, '  ').every((a) => !a.finalAnswerFirst));
  });

  it('episodeActivity(transcript, 3, "7") matches whole tokens only: "72" does not contain the answer 7', () => {
    assert.ok(episodeActivity(transcript, 3, '7').every((a) => !a.finalAnswerFirst));
  });

  it('episodeActivity(messages, n, "24 clips") matches a multi-token answer as a contiguous run', () => {
    const activity = episodeActivity(transcript, 3, '24 clips');
    assert.deepEqual(
      activity.map((a) => a.finalAnswerFirst),
      [false, true, false],
    );
  });

  it('episodeActivity(messages) does not count an agent repeating its own message as copying', () => {
    const repeated = [
      { agent: 0, content: solution },
      { agent: 0, content: solution },
    ];
    assert.equal(episodeActivity(repeated, 2)[0]?.copiedMessages, 0);
  });

  it('episodeActivity(messages) compares with the most recent message of a different agent, not an older one', () => {
    const messages = [
      { agent: 0, content: solution },
      { agent: 1, content: 'Let me redo it: 48 / 2 = 24 for May, and 48 + 24 = 72 altogether.' },
      { agent: 2, content: solution },
    ];
    assert.deepEqual(
      episodeActivity(messages, 3).map((a) => a.copiedMessages),
      [0, 0, 0],
    );
  });

  it('episodeActivity(messages, 4) gives zeros to an agent that never speaks', () => {
    assert.deepEqual(episodeActivity(transcript, 4)[3], {
      messages: 0,
      tokens: 0,
      emptyMessages: 0,
      copiedMessages: 0,
      finalAnswerFirst: false,
    });
  });

  it('episodeActivity(messages, n, answer, options) passes minTokens and copyThreshold through', () => {
    const strict = episodeActivity(transcript, 3, '72', { minTokens: 0, copyThreshold: 1.01 });
    assert.deepEqual(
      strict.map((a) => [a.emptyMessages, a.copiedMessages]),
      [
        [0, 0],
        [1, 0],
        [1, 0],
      ],
    );
  });

  it('episodeActivity([], 2) gives two zero rows', () => {
    assert.deepEqual(
      episodeActivity([], 2).map((a) => a.messages),
      [0, 0],
    );
  });

  it('episodeActivity(messages, n) throws RangeError for an agent outside [0, n) or a bad n', () => {
    assert.throws(() => episodeActivity([{ agent: 3, content: 'x' }], 3), RangeError);
    assert.throws(() => episodeActivity([{ agent: 0.5, content: 'x' }], 3), RangeError);
    assert.throws(() => episodeActivity([], -1), RangeError);
  });
});
