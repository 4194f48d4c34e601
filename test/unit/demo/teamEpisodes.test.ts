import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Episode } from '../../../src/core/episode';
import { creditRunName, teamEpisodes, teamManifest } from '../../../src/demo/teamEpisodes';
import { decodeEpisode } from '../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../src/ingest/canonical/decodeManifest';
import { grpoAdvantages } from '../../../src/demo/grpoAdvantages';
import { advantagesFor } from '../../../src/credit/signals/advantageConventions';
import { mulberry32 } from '../../../src/core/mulberry32';

const episodes = [...teamEpisodes()];
const control = [...teamEpisodes({ freeRider: false })];

function counterfactualReward(episode: Episode, agent: string): number {
  const found = episode.counterfactuals?.find((c) => c.agents.length === 1 && c.agents[0] === agent);
  assert.ok(found, `${episode.id} has no counterfactual for ${agent}`);
  return found.reward;
}

/** Mean over the episodes of steps [from, to] of `value`. */
function windowMean(run: readonly Episode[], from: number, to: number, value: (e: Episode) => number): number {
  const window = run.filter((e) => (e.step ?? 0) >= from && (e.step ?? 0) <= to);
  return window.reduce((sum, e) => sum + value(e), 0) / window.length;
}

const leaveOneOut = (agent: string) => (e: Episode) => (e.reward ?? 0) - counterfactualReward(e, agent);
const lastAnswer = (text: string): string | undefined => /#### (-?\d+)\s*$/.exec(text)?.[1];

describe('teamEpisodes', () => {
  it('teamEpisodes(options) is deterministic for a seed and changes with the seed', () => {
    assert.deepEqual([...teamEpisodes({ seed: 7 })], episodes);
    const small = [...teamEpisodes({ episodes: 64 })];
    assert.deepEqual([...teamEpisodes({ episodes: 64 })], small);
    const other = [...teamEpisodes({ seed: 8, episodes: 64 })];
    assert.notDeepEqual(
      other.map((e) => e.prompt),
      small.map((e) => e.prompt),
    );
    assert.notDeepEqual(
      other.map((e) => e.reward),
      small.map((e) => e.reward),
    );
  });

  it('teamEpisodes() yields 40 steps × 8 groups × 4 samples = 1280 episodes with unique ids', () => {
    assert.equal(episodes.length, 1280);
    assert.equal(new Set(episodes.map((e) => e.id)).size, 1280);
    assert.deepEqual(
      [...new Set(episodes.map((e) => e.step))],
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    assert.equal(new Set(episodes.map((e) => e.group)).size, 320);
    assert.equal(new Set(episodes.map((e) => e.task)).size, 320);
    assert.ok(episodes.every((e) => e.split === 'train' && e.sample !== undefined && e.sample >= 0 && e.sample < 4));
    const first = episodes[5];
    assert.equal(first?.id, 's1-g1-r1');
    assert.equal(first?.group, 's1-g1');
  });

  it('teamEpisodes() lines and teamManifest() decode with no error', () => {
    for (const episode of [...episodes, ...control]) {
      const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
      assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
    }
    const manifest = decodeManifest(JSON.parse(JSON.stringify(teamManifest())), 'x');
    assert.ok(manifest.ok, manifest.ok ? '' : manifest.error);
    assert.equal(manifest.value.name, 'planner-solver-verifier');
    assert.equal(manifest.value.mechanism, 'pipeline');
    assert.deepEqual(manifest.value.evaluator, {
      kind: 'builtin',
      name: 'final-answer',
      options: { aggregation: 'last' },
    });
  });

  it('teamEpisodes() coalition values agree with the counterfactuals and the reward', () => {
    for (const e of [...episodes, ...control]) {
      const v = new Map(e.coalitions?.map((c) => [c.agents.join('+'), c.value]));
      assert.equal(v.size, 8, e.id);
      assert.equal(v.get(''), 0);
      for (const key of ['planner', 'verifier', 'planner+verifier']) assert.equal(v.get(key), 0, `${e.id} ${key}`);
      assert.equal(v.get('planner+solver+verifier'), e.reward);
      assert.equal(v.get('solver+verifier'), counterfactualReward(e, 'planner'));
      assert.equal(v.get('planner+verifier'), counterfactualReward(e, 'solver'));
      assert.equal(v.get('planner+solver'), counterfactualReward(e, 'verifier'));
      assert.ok((v.get('solver') ?? 0) <= (v.get('planner+solver') ?? 0), `${e.id}: the plan never hurts`);
      const replayed = Object.fromEntries(e.counterfactuals?.map((c) => [c.agents[0], c.replayed]) ?? []);
      assert.deepEqual(replayed, { planner: true, solver: true, verifier: false });
    }
  });

  it('teamEpisodes() ends with the verifier, whose #### N is final.answer and scores the reward', () => {
    for (const e of episodes) {
      const last = e.messages[e.messages.length - 1];
      assert.equal(last?.agent, 'verifier');
      assert.deepEqual(e.final, { answer: lastAnswer(last?.content ?? ''), agent: 'verifier' });
      assert.equal(e.reward, e.final?.answer === e.groundTruth ? 1 : 0);
      assert.ok(
        e.messages.every((m) => m.role === 'assistant' && Number.isInteger(m.tokenCount) && (m.tokenCount ?? 0) > 0),
      );
      assert.ok(lastAnswer(e.messages[1]?.content ?? '') !== undefined, `${e.id}: the solver ends with #### N`);
    }
  });

  it("teamEpisodes() advantages are verl's group-relative GRPO advantage of the reward (sample std), equal for all agents", () => {
    for (let start = 0; start < episodes.length; start += 4) {
      const group = episodes.slice(start, start + 4);
      const rewards = group.map((e) => e.reward ?? 0);
      const mean = rewards.reduce((a, b) => a + b, 0) / 4;
      // verl (the producer run.json names) divides by torch.std: the sample std, n − 1 = 3.
      const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / 3);
      for (const e of group) {
        assert.equal(e.group, group[0]?.group);
        const expected = ((e.reward ?? 0) - mean) / (std + 1e-6);
        for (const agent of ['planner', 'solver', 'verifier'])
          assert.ok(Math.abs((e.advantages?.[agent] ?? NaN) - expected) < 1e-5, e.id);
      }
    }
  });

  it('teamEpisodes() tells the free-rider story: the verifier fades while the team reward rises', () => {
    const verifierEarly = windowMean(episodes, 1, 10, leaveOneOut('verifier'));
    const verifierLate = windowMean(episodes, 31, 40, leaveOneOut('verifier'));
    const rewardEarly = windowMean(episodes, 1, 10, (e) => e.reward ?? 0);
    const rewardLate = windowMean(episodes, 31, 40, (e) => e.reward ?? 0);
    assert.ok(verifierEarly >= 0.15, `verifier LOO early ${verifierEarly}`);
    assert.ok(verifierLate <= 0.01, `verifier LOO late ${verifierLate}`);
    assert.ok(rewardLate - rewardEarly >= 0.15, `reward ${rewardEarly} → ${rewardLate}`);
    assert.ok(windowMean(episodes, 31, 40, leaveOneOut('planner')) > 0.1);
  });

  it('teamEpisodes({freeRider: false}) keeps the verifier contributing late in training', () => {
    assert.ok(windowMean(control, 31, 40, leaveOneOut('verifier')) >= 0.1);
    assert.ok(windowMean(control, 1, 10, leaveOneOut('verifier')) >= 0.15);
  });

  it('teamEpisodes() idle verifier messages are content-free echoes late in the free-rider run', () => {
    const late = episodes.filter((e) => (e.step ?? 0) > 30).map((e) => e.messages[2]?.content ?? '');
    assert.ok(
      late.every((text) => !text.includes('Checking') && text.length < 40),
      late.find((t) => t.includes('Checking')),
    );
    const early = episodes.filter((e) => (e.step ?? 0) <= 10).map((e) => e.messages[2]?.content ?? '');
    assert.ok(early.every((text) => text.includes('Checking') || text.includes('is wrong')));
  });

  it('teamEpisodes({episodes: N}) yields exactly N episodes, the last group cut short', () => {
    const some = [...teamEpisodes({ episodes: 70 })];
    assert.equal(some.length, 70);
    assert.equal(some[69]?.id, 's3-g1-r1');
    assert.equal([...teamEpisodes({ episodes: 1 })].length, 1);
    assert.throws(() => [...teamEpisodes({ episodes: 0 })], RangeError);
  });

  it('teamEpisodes({verbose: true, rounds: 3}) writes 9 messages and ≥ 3 KB per line', () => {
    const verbose = [...teamEpisodes({ verbose: true, rounds: 3, episodes: 64 })];
    assert.ok(verbose.every((e) => e.messages.length === 9));
    const bytes = verbose.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0) / verbose.length;
    assert.ok(bytes >= 3072, `${bytes} bytes per line`);
    const plain = [...teamEpisodes({ episodes: 64 })];
    // Rounds and wording draw from their own streams, so the outcomes do not move.
    assert.deepEqual(
      verbose.map((e) => e.reward),
      plain.map((e) => e.reward),
    );
    assert.deepEqual(
      verbose.map((e) => e.final),
      plain.map((e) => e.final),
    );
    assert.deepEqual(
      verbose.map((e) => e.messages.map((m) => m.turn)),
      verbose.map(() => [0, 1, 2, 3, 4, 5, 6, 7, 8]),
    );
  });
});

describe("teamEpisodes(options, 'marginal-contribution'): the -credit run", () => {
  const credit = [...teamEpisodes({}, 'marginal-contribution')];

  it('holds the same tasks, prompts, steps, groups and rollouts as the shared run, under ids of its own', () => {
    assert.equal(credit.length, episodes.length);
    credit.forEach((e, k) => {
      const shared = episodes[k];
      assert.deepEqual(
        [e.task, e.prompt, e.step, e.group, e.sample],
        [shared?.task, shared?.prompt, shared?.step, shared?.group, shared?.sample],
      );
      assert.equal(e.id, `credit-${shared?.id ?? ''}`);
    });
    const again = JSON.stringify([...teamEpisodes({}, 'marginal-contribution')]);
    assert.ok(again === JSON.stringify(credit), 'seeded: the same options give the same run');
  });

  it('keeps the verifier contributing (no free rider) and logs each agent the GRPO advantage of its own contribution', () => {
    assert.ok(windowMean(credit, 25, 40, leaveOneOut('verifier')) >= 0.1);
    for (let start = 0; start < credit.length; start += 4) {
      const group = credit.slice(start, start + 4);
      for (const agent of ['planner', 'solver', 'verifier']) {
        const expected = grpoAdvantages(group.map(leaveOneOut(agent)));
        assert.deepEqual(
          group.map((e) => e.advantages?.[agent]),
          expected,
          `${group[0]?.group ?? ''} ${agent}`,
        );
      }
    }
    assert.ok(
      credit.some((e) => e.advantages?.['verifier'] !== e.advantages?.['solver']),
      'agents no longer share one advantage',
    );
  });

  it('names itself and its training signal in run.json', () => {
    const manifest = decodeManifest(teamManifest({}, 'marginal-contribution'), creditRunName);
    assert.ok(manifest.ok);
    assert.equal(manifest.value.name, creditRunName);
    assert.equal(manifest.value.metadata?.['trainingSignal'], 'marginal-contribution');
    assert.equal(teamManifest().metadata?.['trainingSignal'], 'shared-reward');
  });
});

describe("the demo's logged advantages", () => {
  it("equal the credit engine's verl convention on the same rewards (groups of 1 to 8, ties included)", () => {
    const uniform = mulberry32(16);
    for (let trial = 0; trial < 200; trial++) {
      const rewards = Array.from({ length: 1 + Math.floor(uniform() * 8) }, () => Math.round(uniform() * 4) / 4);
      const engine = Array.from(advantagesFor('verl', rewards));
      grpoAdvantages(rewards).forEach((a, i) => {
        assert.ok(
          Math.abs(a - (engine[i] ?? NaN)) < 1e-6,
          `${JSON.stringify(rewards)}: ${String(a)} vs ${String(engine[i])}`,
        );
      });
    }
  });
});
