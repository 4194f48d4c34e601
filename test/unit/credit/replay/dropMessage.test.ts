import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { tokenSetDistance } from '../../../../src/credit/replay/outputDistance';
import { planReplay } from '../../../../src/credit/replay/planReplay';

// Message influence (credit-methods.md §3.17): one message is dropped and what follows it regenerated.
const episode: Episode = {
  id: 'e1',
  prompt: 'What is 6 × 7?',
  agents: [
    { name: 'planner', kind: 'llm', systemPrompt: 'You plan.' },
    { name: 'calculator', kind: 'tool' },
    { name: 'solver', kind: 'llm', systemPrompt: 'You solve.' },
  ],
  messages: [
    { agent: 'planner', role: 'assistant', content: 'Multiply 6 by 7.' },
    { agent: 'calculator', role: 'tool', channel: 'tool_result', content: '42' },
    { agent: 'solver', role: 'assistant', content: '#### 42' },
    { agent: 'planner', role: 'assistant', content: 'Done.' },
  ],
};

const shape = (messages: number[]): string[] => {
  const plan = planReplay(episode, { kind: 'drop', messages }, { defaultModel: 'm' });
  assert.ok(plan.ok, plan.ok ? '' : plan.error);
  return [
    ...plan.value.prefix.map((m) => `prefix ${m.agent}`),
    ...plan.value.steps.map((s) => `${s.kind} ${s.kind === 'generate' ? s.agent : s.message.agent}@${s.loggedIndex}`),
  ];
};

describe('planReplay: dropping messages', () => {
  test('dropping the first message regenerates every later model message, keeps the tool result, and leaves the dropped one out', () => {
    assert.deepEqual(shape([0]), ['keep calculator@1', 'generate solver@2', 'generate planner@3']);
  });

  test('dropping the last message keeps everything before it and regenerates nothing', () => {
    assert.deepEqual(shape([3]), ['prefix planner', 'prefix calculator', 'prefix solver']);
  });

  test('a message of the same agent after the cut is regenerated, not dropped: only the named index goes', () => {
    assert.deepEqual(shape([2]), ['prefix planner', 'prefix calculator', 'generate planner@3']);
  });

  test('an index outside the episode is refused, naming it', () => {
    const plan = planReplay(episode, { kind: 'drop', messages: [4] });
    assert.ok(!plan.ok);
    assert.match(plan.error, /message 4 is not one of this episode's 4 messages/);
  });
});

describe('tokenSetDistance', () => {
  test('1 − Jaccard of the distinct word tokens, by hand', () => {
    // {the, answer, is, 42} vs {the, answer, is, 41}: 3 shared of 5 distinct → 1 − 3/5.
    assert.equal(tokenSetDistance('The answer is 42', 'the answer is 41'), 1 - 3 / 5);
    assert.equal(tokenSetDistance('a b a', 'b a'), 0);
    assert.equal(tokenSetDistance('x y', 'z'), 1);
  });

  test('empty texts: both empty 0, one empty 1; symmetric', () => {
    assert.equal(tokenSetDistance('', '  '), 0);
    assert.equal(tokenSetDistance('', 'word'), 1);
    assert.equal(tokenSetDistance('p q r', 'q s'), tokenSetDistance('q s', 'p q r'));
  });
});
