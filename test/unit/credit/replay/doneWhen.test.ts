import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { windowVerdict } from '../../../../src/credit/audit/windowVerdict';
import {
  finalAnswerReward,
  type EvaluatorEpisode,
  type FinalAnswerOptions,
} from '../../../../src/credit/evaluator/finalAnswerEvaluator';
import { agentsIntervention } from '../../../../src/credit/replay/maskIntervention';
import { planReplay } from '../../../../src/credit/replay/planReplay';
import { estimateReplayCost, totalReplayCost } from '../../../../src/credit/replay/replayCost';
import { replayReward } from '../../../../src/credit/replay/replayReward';
import type { ReplayPlan } from '../../../../src/credit/replay/replayTypes';
import { runReplay } from '../../../../src/credit/replay/runReplay';
import { decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';
import { playEchoPipeline } from '../../../fixtures/replay/echoPipelineAgents';

// Issue 14, done when: on a two-agent pipeline where B only repeats A's answer and nothing is
// logged, replay gives LOO(A) = 1 and LOO(B) = 0 exactly, and B is a free rider over enough episodes.

const run = join(__dirname, '../../../fixtures/replay/two-agent-echo');
const options: FinalAnswerOptions = { extraction: 'gsm8k', aggregation: 'last' };

function fixtureEpisodes(): Episode[] {
  const manifest = decodeManifest(JSON.parse(readFileSync(join(run, 'run.json'), 'utf8')), 'two-agent-echo');
  assert.ok(manifest.ok);
  return readdirSync(join(run, 'rollouts'))
    .sort()
    .flatMap((file) =>
      readFileSync(join(run, 'rollouts', file), 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    )
    .map((line) => {
      const decoded = decodeEpisode(JSON.parse(line), manifest.value.agents);
      assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
      return decoded.value;
    });
}

function checkerEpisode(e: Episode): EvaluatorEpisode {
  const agents = e.agents.map((a) => a.name);
  return {
    agents,
    messages: e.messages.map((m) => ({ agent: agents.indexOf(m.agent), content: m.content })),
    groundTruth: e.groundTruth,
  };
}

function plan(e: Episode, presentMask: bigint): ReplayPlan {
  const intervention = agentsIntervention(
    e.agents.map((a) => a.name),
    presentMask,
    'remove',
  );
  assert.ok(intervention.ok);
  const planned = planReplay(e, intervention.value);
  assert.ok(planned.ok, planned.ok ? '' : planned.error);
  return planned.value;
}

/** v(S) by replay: the agents outside `presentMask` removed, the others regenerated after the cut, scored by the checker. */
async function replayedValue(e: Episode, presentMask: bigint): Promise<number> {
  const conversation = await runReplay(plan(e, presentMask), (request) => Promise.resolve(playEchoPipeline(request)));
  return replayReward(checkerEpisode(e), conversation, options, presentMask);
}

const everyone = 0b11n;
const withoutA = 0b10n;
const withoutB = 0b01n;

describe('done when: two-agent pipeline, B only repeats A, nothing logged', () => {
  const episodes = fixtureEpisodes();

  test('the fixture holds 120 episodes (12 failed) over 4 steps with ground truths, system prompts and no logged counterfactuals', () => {
    assert.equal(episodes.length, 120);
    assert.deepEqual([...new Set(episodes.map((e) => e.step))], [1, 2, 3, 4]);
    assert.equal(episodes.filter((e) => e.reward === 0).length, 12);
    assert.ok(
      episodes.every(
        (e) => e.groundTruth !== undefined && e.counterfactuals === undefined && e.coalitions === undefined,
      ),
    );
    assert.ok(episodes.every((e) => e.agents.every((a) => a.systemPrompt !== undefined)));
  });

  test('without replay the checker keeps B’s logged repeat, so LOO(A) comes out 0 (the approximation)', () => {
    for (const e of episodes) {
      const checked = checkerEpisode(e);
      assert.equal(
        finalAnswerReward(checked, everyone, options) - finalAnswerReward(checked, withoutA, options),
        0,
        e.id,
      );
    }
  });

  test('with replay LOO(A) = 1 in every successful episode and LOO(B) = 0 in every episode, exactly; B is a free rider, A contributes', async () => {
    const looA: number[] = [];
    const looB: number[] = [];
    const rewards: number[] = [];
    const withoutBValues: number[] = [];
    const withoutAValues: number[] = [];
    for (const e of episodes) {
      const full = await replayedValue(e, everyone);
      const noA = await replayedValue(e, withoutA);
      const noB = await replayedValue(e, withoutB);
      // The factual replay regenerates nothing: it scores the logged reward. A failure stays a failure whoever is removed.
      assert.equal(full, e.reward, e.id);
      assert.deepEqual([noA, noB], [0, full], e.id);
      looA.push(full - noA);
      looB.push(full - noB);
      rewards.push(full);
      withoutAValues.push(noA);
      withoutBValues.push(noB);
    }
    assert.deepEqual(looA, rewards);
    assert.equal(looA.filter((d) => d === 1).length, 108);
    assert.ok(looB.every((d) => d === 0));
    assert.equal(windowVerdict(looB, rewards, withoutBValues, { minEpisodes: 100 }).verdict, 'free-rider');
    assert.equal(windowVerdict(looA, rewards, withoutAValues, { minEpisodes: 100 }).verdict, 'contributes');
  });

  test('the replay costs one call per episode (B after A is removed), estimated before running', () => {
    const cost = totalReplayCost(
      episodes.flatMap((e) => [everyone, withoutA, withoutB].map((mask) => estimateReplayCost(plan(e, mask)))),
    );
    assert.equal(cost.calls, 120);
    assert.ok(cost.promptTokens > 0 && cost.completionTokens > 0);
  });
});
