import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import type { FinalAnswerOptions } from '../../../../src/credit/evaluator/finalAnswerEvaluator';
import { agentsIntervention, prefixIntervention, prefixLength } from '../../../../src/credit/replay/maskIntervention';
import { planReplay } from '../../../../src/credit/replay/planReplay';
import { estimateReplayCost, estimatedTokens, totalReplayCost } from '../../../../src/credit/replay/replayCost';
import { replayReward } from '../../../../src/credit/replay/replayReward';
import { loggedSampling } from '../../../../src/credit/replay/replaySampling';
import { replaySamples } from '../../../../src/credit/replay/replaySamples';
import type { ReplayPlan } from '../../../../src/credit/replay/replayTypes';
import { runReplay } from '../../../../src/credit/replay/runReplay';

const episode: Episode = {
  id: 'c',
  prompt: 'p'.repeat(40),
  agents: [
    { name: 'a', kind: 'llm', policy: 'm', systemPrompt: 's'.repeat(20) },
    { name: 'b', kind: 'llm', policy: 'm' },
  ],
  messages: [
    { agent: 'a', role: 'assistant', content: 'x'.repeat(100), tokenCount: 30 },
    { agent: 'b', role: 'assistant', content: 'y'.repeat(81) },
  ],
};

function plan(keep: number): ReplayPlan {
  const result = planReplay(episode, { kind: 'messages', keep });
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

describe('estimateReplayCost', () => {
  test('counts one call per regenerated message, logged token counts where present, else characters / 4', () => {
    // a: system 5 + task 10 → completion 30 (logged); b: task 10 + a's message 30 (logged) → completion ceil(81/4) = 21.
    assert.deepEqual(estimateReplayCost(plan(0)), {
      calls: 2,
      promptTokens: 5 + 10 + 10 + 30,
      completionTokens: 30 + 21,
    });
    assert.deepEqual(estimateReplayCost(plan(1)), { calls: 1, promptTokens: 10 + 30, completionTokens: 21 });
    assert.deepEqual(estimateReplayCost(plan(2)), { calls: 0, promptTokens: 0, completionTokens: 0 });
  });

  test('samples = K multiplies the estimate, and estimates add up over plans', () => {
    assert.deepEqual(estimateReplayCost(plan(1), 4), { calls: 4, promptTokens: 160, completionTokens: 84 });
    assert.deepEqual(totalReplayCost([estimateReplayCost(plan(0)), estimateReplayCost(plan(1))]), {
      calls: 3,
      promptTokens: 95,
      completionTokens: 72,
    });
  });

  test('estimatedTokens rounds up a quarter of the characters', () => {
    assert.deepEqual([estimatedTokens(''), estimatedTokens('abc'), estimatedTokens('abcde')], [0, 1, 2]);
  });

  test('the estimate matches what a run sends when replies are as long as the logged messages', async () => {
    let promptChars = 0;
    await runReplay(plan(1), (request) => {
      promptChars += request.messages.reduce((sum, m) => sum + m.content.length, 0);
      return Promise.resolve('y'.repeat(81));
    });
    assert.equal(promptChars, 40 + 100);
  });
});

describe('replaySamples (samples = K)', () => {
  test('mean, standard error and the 95% t interval of the K rewards', () => {
    const s = replaySamples([1, 0, 1, 1]);
    assert.equal(s.n, 4);
    assert.equal(s.mean, 0.75);
    assert.equal(s.se, 0.25);
    // t(0.975, 3) = 3.182446305
    assert.ok(Math.abs(s.ci95[0] - (0.75 - 3.182446305 * 0.25)) < 1e-8, String(s.ci95[0]));
    assert.ok(Math.abs(s.ci95[1] - (0.75 + 3.182446305 * 0.25)) < 1e-8, String(s.ci95[1]));
  });

  test('equal rewards give a zero-width interval; one reward a mean without interval; NaN rewards are skipped', () => {
    assert.deepEqual(replaySamples([1, 1, 1]), { n: 3, mean: 1, se: 0, ci95: [1, 1] });
    assert.deepEqual(replaySamples([0, NaN]), { n: 1, mean: 0, se: NaN, ci95: [NaN, NaN] });
    assert.equal(replaySamples([]).n, 0);
  });
});

describe('masks as interventions', () => {
  test('an agent mask removes the agents whose bit is clear', () => {
    assert.deepEqual(agentsIntervention(['a', 'b', 'c'], 0b101n, 'remove'), {
      ok: true,
      value: { kind: 'agents', removed: ['b'], mode: 'remove' },
    });
    assert.deepEqual(agentsIntervention(['a', 'b'], 0b11n, 'default'), {
      ok: true,
      value: { kind: 'agents', removed: [], mode: 'default' },
    });
    assert.equal(agentsIntervention(['a'], 0b10n, 'remove').ok, false);
  });

  test('a message mask must be a prefix 2^k − 1 within the episode', () => {
    assert.deepEqual([0n, 1n, 0b111n, 0b101n, 0b10n, -1n].map(prefixLength), [
      0,
      1,
      3,
      undefined,
      undefined,
      undefined,
    ]);
    assert.deepEqual(prefixIntervention(0b11n, 3), { ok: true, value: { kind: 'messages', keep: 2 } });
    assert.deepEqual(prefixIntervention(0b1111n, 3), {
      ok: false,
      error: 'mask 15 keeps 4 messages, but the episode has 3',
    });
    const notPrefix = prefixIntervention(0b101n, 3);
    assert.ok(!notPrefix.ok);
    assert.match(notPrefix.error, /mask 5 is not one/);
  });
});

describe('loggedSampling', () => {
  test('reads the wire names at the top level and in metadata.sampling (which wins), ignoring bad values', () => {
    assert.deepEqual(loggedSampling({ temperature: 0.8, top_p: 0.95, max_tokens: 512, seed: 3 }), {
      temperature: 0.8,
      topP: 0.95,
      maxTokens: 512,
      seed: 3,
    });
    assert.deepEqual(loggedSampling({ temperature: 1, sampling: { temperature: 0.2, topP: 0.5, maxTokens: 64 } }), {
      temperature: 0.2,
      topP: 0.5,
      maxTokens: 64,
    });
    assert.deepEqual(loggedSampling({ temperature: 'hot', max_tokens: 1.5, seed: 2.5, top_p: null }), {});
    assert.deepEqual(loggedSampling({ max_tokens: -1, sampling: [1] }), {});
    assert.deepEqual(loggedSampling(undefined), {});
  });
});

describe('replayReward', () => {
  const options: FinalAnswerOptions = { extraction: 'gsm8k', aggregation: 'last' };
  const base = { agents: ['a', 'b'], messages: [], groundTruth: '42' };

  test('scores the replayed conversation with the final-answer checker, default actions included', () => {
    assert.equal(replayReward(base, [{ agent: 'a', content: '#### 42', origin: 'replayed' }], options), 1);
    assert.equal(
      replayReward(
        base,
        [
          { agent: 'a', content: '#### 42', origin: 'logged' },
          { agent: 'b', content: '#### 7', origin: 'default' },
        ],
        options,
      ),
      0,
    );
    assert.equal(replayReward(base, [{ agent: 'stranger', content: '#### 42', origin: 'logged' }], options), 0);
  });

  test('v(∅) is 0 and a missing ground truth is NaN, as for the checker', () => {
    assert.equal(replayReward(base, [{ agent: 'a', content: '#### 42', origin: 'logged' }], options, 0n), 0);
    assert.ok(
      Number.isNaN(
        replayReward(
          { ...base, groundTruth: undefined },
          [{ agent: 'a', content: '#### 42', origin: 'logged' }],
          options,
        ),
      ),
    );
  });
});
