import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatRequest } from '../../../../src/core/chat';
import type { Episode } from '../../../../src/core/episode';
import type { FinalAnswerOptions } from '../../../../src/credit/evaluator/finalAnswerEvaluator';
import { firstError } from '../../../../src/credit/game/firstError';
import { prefixValueCredit } from '../../../../src/credit/game/prefixValueCredit';
import { firstErrorFromPrefixValues } from '../../../../src/credit/replay/firstErrorFromPrefixValues';
import { prefixIntervention } from '../../../../src/credit/replay/maskIntervention';
import { planReplay } from '../../../../src/credit/replay/planReplay';
import { replayReward } from '../../../../src/credit/replay/replayReward';
import { runReplay } from '../../../../src/credit/replay/runReplay';

// A failed episode in the style of Who&When: the coder's message 1 is the labelled mistake.
const failed: Episode = {
  id: 'ww-1',
  prompt: 'What is 6 × 7?',
  agents: [
    { name: 'planner', kind: 'llm', policy: 'm', systemPrompt: 'planner' },
    { name: 'coder', kind: 'llm', policy: 'm', systemPrompt: 'coder' },
    { name: 'checker', kind: 'llm', policy: 'm', systemPrompt: 'checker' },
  ],
  messages: [
    { agent: 'planner', role: 'assistant', content: 'Plan: multiply 6 by 7.' },
    { agent: 'coder', role: 'assistant', content: '6 + 7 = 13 #### 13' },
    { agent: 'checker', role: 'assistant', content: 'Confirmed. #### 13' },
  ],
  groundTruth: '42',
  reward: 0,
  labels: [{ kind: 'mistake', agent: 'coder', message: 1 }],
};
const options: FinalAnswerOptions = { extraction: 'gsm8k', aggregation: 'last' };
const base = { agents: ['planner', 'coder', 'checker'], messages: [], groundTruth: '42' };

/** Deterministic agents, told apart by their system prompt: the coder is right when it has a plan, the checker repeats the last answer. */
function play(request: ChatRequest): Promise<string> {
  const role = request.messages[0]?.content;
  const seen = request.messages.slice(1).map((m) => m.content);
  if (role === 'planner') return Promise.resolve('Plan: multiply 6 by 7.');
  if (role === 'coder')
    return Promise.resolve(seen.some((c) => c.startsWith('Plan:')) ? '6 × 7 = 42 #### 42' : '6 + 7 = 13 #### 13');
  const last = [...seen].reverse().find((c) => c.includes('####'));
  return Promise.resolve(last === undefined ? 'Nothing to check.' : `Confirmed. ${last.slice(last.indexOf('####'))}`);
}

/** V(h_k) for k = 0..T, each from the replay of the prefix mask 2^k − 1, as the evaluator will answer it. */
async function prefixValues(episode: Episode): Promise<number[]> {
  const values: number[] = [];
  for (let k = 0; k <= episode.messages.length; k++) {
    const intervention = prefixIntervention((1n << BigInt(k)) - 1n, episode.messages.length);
    assert.ok(intervention.ok);
    const plan = planReplay(episode, intervention.value);
    assert.ok(plan.ok, plan.ok ? '' : plan.error);
    values.push(replayReward(base, await runReplay(plan.value, play), options));
  }
  return values;
}

describe('per-message credit from replayed prefixes', () => {
  test('V(h_k) is the value of letting the agents continue after message k; its differences conserve V(h_T) − V(h_0)', async () => {
    const values = await prefixValues(failed);
    assert.deepEqual(values, [1, 1, 0, 0]);
    const credit = [...prefixValueCredit(values)];
    assert.deepEqual(credit, [0, -1, 0]);
    assert.equal(
      credit.reduce((s, c) => s + c, 0),
      values[3]! - values[0]!,
    );
  });

  test('the first error of the failed episode is the labelled message and agent', async () => {
    const found = firstErrorFromPrefixValues(await prefixValues(failed));
    assert.equal(found.index, 1);
    const label = failed.labels?.[0];
    assert.equal(found.index, label?.message);
    assert.equal(failed.messages[found.index ?? -1]?.agent, label?.agent);
    // The δ rule of credit-methods.md §3.13 agrees on this episode.
    assert.equal(firstError(await prefixValues(failed), 0.25).index, 1);
  });
});

describe('firstErrorFromPrefixValues', () => {
  test('names the drop to near zero that is never recovered; earlier repaired drops are only harmful', () => {
    assert.deepEqual(firstErrorFromPrefixValues([1, 0, 1, 0, 0]), { index: 2, harmful: [0, 2], repairs: [1] });
    // The δ rule names the first drop instead.
    assert.equal(firstError([1, 0, 1, 0, 0], 0.25).index, 0);
  });

  test('near zero is at most ε (default 0.1), and a partial drop above ε is not an error', () => {
    assert.equal(firstErrorFromPrefixValues([0.9, 0.6, 0.05, 0.08]).index, 1);
    assert.equal(firstErrorFromPrefixValues([0.9, 0.6, 0.3]).index, undefined);
    assert.equal(firstErrorFromPrefixValues([0.9, 0.6, 0.3], 0.3).index, 1);
  });

  test('no first error when the episode was lost from the prompt, not lost at all, or a later value is unknown', () => {
    assert.deepEqual(firstErrorFromPrefixValues([0, 0, 0]), { index: undefined, harmful: [], repairs: [] });
    assert.equal(firstErrorFromPrefixValues([1, 1, 1]).index, undefined);
    assert.equal(firstErrorFromPrefixValues([1, 0, 0, 1]).index, undefined);
    assert.equal(firstErrorFromPrefixValues([1, 0, NaN]).index, undefined);
    assert.equal(firstErrorFromPrefixValues([1]).index, undefined);
    assert.equal(firstErrorFromPrefixValues([]).index, undefined);
  });

  test('a negative or NaN ε is a programmer error', () => {
    assert.throws(() => firstErrorFromPrefixValues([1, 0], -0.1), RangeError);
    assert.throws(() => firstErrorFromPrefixValues([1, 0], NaN), RangeError);
  });
});
