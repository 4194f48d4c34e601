import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { coalitionTable } from '../../../../src/credit/game/coalitionGame';
import { shapleyValues } from '../../../../src/credit/game/shapleyValues';
import {
  scenarioEpisodes,
  scenarioManifest,
  scenarioTruth,
  type ScenarioSpec,
} from '../../../../src/demo/auditScenarios/scenario';
import { scenarioPlan } from '../../../../src/demo/auditScenarios/scenarioPlan';
import { validationSuite } from '../../../../src/demo/auditScenarios/scenarioSuite';
import { decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';

const suite = validationSuite();
const runs = suite.map((spec) => ({ spec, plan: scenarioPlan(spec), episodes: [...scenarioEpisodes(spec)] }));
const small: ScenarioSpec = {
  seed: 5,
  teamSize: 3,
  mechanism: 'pipeline',
  noise: 0.15,
  roles: ['honest', 'free-rider', 'honest'],
  steps: 3,
  groupsPerStep: 2,
  samplesPerGroup: 4,
};

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const removed = (e: Episode, agent: string): number =>
  e.counterfactuals?.find((c) => c.agents[0] === agent)?.reward ?? NaN;
const loo = (episodes: readonly Episode[], agent: string): number =>
  mean(episodes.map((e) => (e.reward ?? 0) - removed(e, agent)));
const value = (e: Episode, agents: readonly string[]): number =>
  e.coalitions?.find((c) => c.agents.join('+') === agents.join('+'))?.value ?? NaN;
const rewardMean = (episodes: readonly Episode[]): number => mean(episodes.map((e) => e.reward ?? 0));
const window = (episodes: readonly Episode[], from: number, to: number): Episode[] =>
  episodes.filter((e) => (e.step ?? 0) >= from && (e.step ?? 0) <= to);

/** Mean Shapley value of each agent over the episodes, from the logged coalition tables. */
function shapleyMeans(episodes: readonly Episode[]): number[] {
  const names = episodes[0]?.agents.map((a) => a.name) ?? [];
  const sums = new Array<number>(names.length).fill(0);
  for (const e of episodes) {
    const table = coalitionTable(names.length, (mask) =>
      value(
        e,
        names.filter((_, j) => (mask & (1 << j)) !== 0),
      ),
    );
    shapleyValues(table).forEach((phi, j) => (sums[j] = (sums[j] ?? 0) + phi));
  }
  return sums.map((s) => s / episodes.length);
}

describe('scenarioEpisodes', () => {
  it('scenarioEpisodes(spec) is deterministic for a spec and changes with the seed', () => {
    assert.deepEqual([...scenarioEpisodes(small)], [...scenarioEpisodes(small)]);
    const other = [...scenarioEpisodes({ ...small, seed: 6 })];
    assert.notDeepEqual(
      other.map((e) => e.prompt),
      [...scenarioEpisodes(small)].map((e) => e.prompt),
    );
    assert.deepEqual(runs[3]?.episodes, [...scenarioEpisodes(suite[3] as ScenarioSpec)]);
  });

  it('scenarioEpisodes(spec) yields steps × groups × samples episodes with unique ids, in step order', () => {
    for (const { spec, episodes } of runs) {
      assert.equal(episodes.length, spec.steps * spec.groupsPerStep * spec.samplesPerGroup);
      assert.equal(new Set(episodes.map((e) => e.id)).size, episodes.length);
      assert.ok(episodes.every((e, k) => k === 0 || (e.step ?? 0) >= (episodes[k - 1]?.step ?? 0)));
    }
  });

  it('every episode and manifest decodes, and the episode roster is the manifest roster', () => {
    for (const { spec, episodes } of runs) {
      const manifest = decodeManifest(JSON.parse(JSON.stringify(scenarioManifest(spec))), 'x');
      assert.ok(manifest.ok, manifest.ok ? '' : manifest.error);
      assert.equal(manifest.value.mechanism, spec.mechanism);
      const roster = manifest.value.agents?.map((a) => a.name);
      for (const episode of episodes) {
        const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
        assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
        assert.deepEqual(
          decoded.value.agents.map((a) => a.name),
          roster,
        );
      }
    }
  });

  it('coalition values cover all 2^n subsets and agree with the counterfactuals and the reward', () => {
    for (const { spec, episodes } of runs) {
      for (const e of episodes) {
        const names = e.agents.map((a) => a.name);
        assert.equal(e.coalitions?.length, 2 ** spec.teamSize);
        assert.equal(value(e, []), 0);
        assert.equal(value(e, names), e.reward);
        assert.ok(e.reward === 0 || e.reward === 1);
        for (const name of names)
          assert.equal(
            removed(e, name),
            value(
              e,
              names.filter((n) => n !== name),
            ),
            `${e.id} ${name}`,
          );
        assert.ok(
          e.counterfactuals?.every((c) => c.intervention === 'remove' && c.replayed === true && c.agents.length === 1),
        );
      }
    }
  });

  it('the final answer is the gold answer exactly when the team reward is 1; messages carry agent, turn and tokens', () => {
    for (const { episodes } of runs) {
      for (const e of episodes) {
        assert.equal(e.final?.answer === e.groundTruth, e.reward === 1, e.id);
        assert.ok(e.messages.every((m) => Number.isInteger(m.turn) && (m.tokenCount ?? 0) > 0 && m.content.length > 0));
      }
    }
  });

  it('advantages are the shared-reward GRPO advantage, given to every agent that speaks', () => {
    for (const e of runs[0]?.episodes ?? []) {
      const speakers = [...new Set(e.messages.map((m) => m.agent))].sort();
      assert.deepEqual(Object.keys(e.advantages ?? {}).sort(), speakers);
      assert.equal(new Set(Object.values(e.advantages ?? {})).size, 1);
    }
    const silent = runs.find((r) => r.plan.roles.includes('silent'));
    const name = silent?.plan.names[silent.plan.roles.indexOf('silent')] ?? '';
    assert.ok(silent?.episodes.every((e) => e.advantages?.[name] === undefined));
  });
});

describe('scenario roles', () => {
  it('null players (idle, free-rider, silent, a dominant agent’s partners) have mean LOO 0 at any noise', () => {
    for (const { plan, episodes } of runs) {
      for (const [j, role] of plan.roles.entries()) {
        if (role === 'idle' || role === 'free-rider' || role === 'silent')
          assert.ok(Math.abs(loo(episodes, plan.names[j] ?? '')) <= 0.02, `${plan.names[j]} in ${plan.spec.seed}`);
      }
    }
  });

  it('honest agents earn mean LOO ≥ 0.15 in succeeding teams and ≈ the (small) team reward in failing ones', () => {
    for (const { plan, episodes } of runs) {
      const early = plan.fade ? window(episodes, 1, plan.fade.from - 1) : episodes;
      for (const j of plan.contributors) {
        const credit = loo(early, plan.names[j] ?? '');
        if (plan.failing)
          assert.ok(credit >= 0.8 * rewardMean(episodes) && credit > 0.02, `${plan.spec.seed}: ${credit}`);
        else assert.ok(credit >= 0.15, `${plan.spec.seed} ${plan.names[j]}: ${credit}`);
      }
    }
  });

  it('idle scenarios mostly fail (mean R ≤ 0.05); free-rider scenarios mostly succeed (mean R ≥ 0.5)', () => {
    for (const { plan, episodes } of runs) {
      if (plan.failing) assert.ok(rewardMean(episodes) <= 0.05, `${plan.spec.seed}`);
      if (plan.roles.includes('free-rider')) assert.ok(rewardMean(episodes) >= 0.5, `${plan.spec.seed}`);
    }
  });

  it('idle agents write normal-length messages; silent agents write none; free-riders write mostly short ones', () => {
    for (const { plan, episodes } of runs) {
      const tokens = (j: number): number[] =>
        episodes.flatMap((e) => e.messages.filter((m) => m.agent === plan.names[j]).map((m) => m.tokenCount ?? 0));
      for (const [j, role] of plan.roles.entries()) {
        if (role === 'silent') assert.equal(tokens(j).length, 0);
        if (role === 'idle') assert.ok(mean(tokens(j)) >= 25 && tokens(j).length === episodes.length);
        if (role === 'free-rider')
          assert.ok(
            tokens(j).filter((t) => t <= 10).length >= 0.3 * episodes.length,
            `${plan.spec.seed} ${plan.names[j]}`,
          );
      }
    }
  });

  it('a dominant agent solves alone: mean v({d}) ≥ 0.9 · mean R, Shapley share ≥ 0.9', () => {
    const dominant = runs.filter((r) => r.plan.roles.includes('dominant'));
    assert.ok(dominant.length >= 4);
    for (const { plan, episodes } of dominant) {
      const d = plan.roles.indexOf('dominant');
      const alone = mean(episodes.map((e) => value(e, [plan.names[d] ?? ''])));
      assert.ok(alone >= 0.9 * rewardMean(episodes));
      assert.ok((shapleyMeans(episodes)[d] ?? 0) >= 0.9 * rewardMean(episodes));
    }
  });

  it('decoupling: early LOO ≥ 0.15, late |LOO| ≤ 0.02 over the truth free-rider range, reward rising by ≥ 0.1', () => {
    const decoupled = runs.filter((r) => r.plan.fade);
    assert.ok(decoupled.length >= 3);
    for (const { spec, plan, episodes } of decoupled) {
      const fade = plan.fade ?? { agent: 0, from: 0, zeroAt: 0 };
      const name = plan.names[fade.agent] ?? '';
      const late = scenarioTruth(spec).find((t) => t.kind === 'free-rider' && t.agent === name)?.steps ?? [0, 0];
      const early = window(episodes, 1, fade.from - 1);
      assert.ok(loo(early, name) >= 0.15, `${spec.seed} early ${loo(early, name)}`);
      assert.ok(Math.abs(loo(window(episodes, late[0], late[1]), name)) <= 0.02);
      assert.ok(rewardMean(window(episodes, late[0], late[1])) - rewardMean(early) >= 0.1);
      assert.ok(rewardMean(window(episodes, late[0], late[1])) >= 0.5);
    }
  });

  it('the truth agrees with Shapley shares: sole performers ≥ 0.9, other contributors between 0.1 and 0.9', () => {
    for (const { spec, plan, episodes } of runs.filter((r) => !r.plan.fade)) {
      const shares = shapleyMeans(episodes).map((phi) => phi / rewardMean(episodes));
      const dominant = new Set(
        scenarioTruth(spec)
          .filter((t) => t.kind === 'dominant')
          .map((t) => t.agent),
      );
      for (const j of plan.contributors) {
        const share = shares[j] ?? NaN;
        if (dominant.has(plan.names[j] ?? '')) assert.ok(share >= 0.9, `${spec.seed}`);
        else assert.ok(share > 0.1 && share < 0.9, `${spec.seed} ${plan.names[j]}: ${share}`);
      }
    }
  });
});
