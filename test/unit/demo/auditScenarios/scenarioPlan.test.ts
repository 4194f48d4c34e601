import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scenarioManifest, scenarioTruth, type ScenarioSpec } from '../../../../src/demo/auditScenarios/scenario';
import { fadeAt, scenarioName, scenarioPlan } from '../../../../src/demo/auditScenarios/scenarioPlan';

const base: ScenarioSpec = {
  seed: 3,
  teamSize: 3,
  mechanism: 'pipeline',
  noise: 0.05,
  roles: ['free-rider', 'honest', 'honest'],
  steps: 20,
  groupsPerStep: 8,
  samplesPerGroup: 4,
};

describe('scenarioPlan', () => {
  it('scenarioName(spec) spells seed, mechanism, size, noise and roles', () => {
    assert.equal(scenarioName(base), 's3-pipeline-n3-noise0.05-free-rider-honest-honest');
    assert.equal(
      scenarioName({ ...base, roles: ['honest', 'honest', 'honest'], steps: 40, decoupling: { agent: 2, from: 12 } }),
      's3-pipeline-n3-noise0.05-honest-honest-honest-decoupling2from12',
    );
    assert.equal(scenarioManifest(base).name, scenarioName(base));
  });

  it('scenarioManifest(spec) declares neutral names and no roles', () => {
    const manifest = scenarioManifest({ ...base, mechanism: 'vote' });
    assert.deepEqual(
      manifest.agents?.map((a) => a.name),
      ['voter_1', 'voter_2', 'voter_3'],
    );
    assert.ok(!JSON.stringify(manifest.agents).includes('free-rider'));
    assert.deepEqual(
      scenarioManifest({ ...base, teamSize: 5, roles: ['honest', 'honest', 'honest', 'honest', 'honest'] }).agents?.map(
        (a) => a.name,
      ),
      ['analyst', 'planner', 'solver', 'critic', 'verifier'],
    );
  });

  it('the partners of a dominant agent play free-rider', () => {
    const plan = scenarioPlan({ ...base, roles: ['honest', 'dominant', 'silent'] });
    assert.deepEqual(plan.roles, ['free-rider', 'dominant', 'silent']);
    assert.deepEqual(plan.contributors, [1]);
  });

  it('scenarioPlan(spec) rejects specs no latent model can honour', () => {
    const bad: Partial<ScenarioSpec>[] = [
      { teamSize: 6, roles: ['honest', 'honest', 'honest', 'honest', 'honest', 'honest'] },
      { teamSize: 1, roles: ['honest'] },
      { roles: ['honest', 'honest'] },
      { noise: 0.4 },
      { steps: 0 },
      { roles: ['idle', 'free-rider', 'honest'] },
      { roles: ['idle', 'dominant', 'honest'] },
      { roles: ['dominant', 'dominant', 'honest'] },
      { roles: ['free-rider', 'silent', 'free-rider'] },
      { roles: ['honest', 'honest', 'free-rider'], decoupling: { agent: 2, from: 5 } },
      { roles: ['honest', 'free-rider', 'silent'], decoupling: { agent: 0, from: 5 } },
      { roles: ['honest', 'honest', 'honest'], decoupling: { agent: 0, from: 19 } },
      { mechanism: 'vote', roles: ['honest', 'honest', 'silent'], decoupling: { agent: 0, from: 5 } },
    ];
    for (const patch of bad)
      assert.throws(() => scenarioPlan({ ...base, ...patch }), RangeError, JSON.stringify(patch));
  });

  it('fadeAt(plan, step) is 1 before `from`, 0 from `zeroAt` on, and falls in between', () => {
    const plan = scenarioPlan({
      ...base,
      roles: ['honest', 'honest', 'honest'],
      steps: 40,
      decoupling: { agent: 2, from: 12 },
    });
    assert.deepEqual(plan.fade, { agent: 2, from: 12, zeroAt: 26 });
    assert.equal(fadeAt(plan, 11), 1);
    assert.equal(fadeAt(plan, 12), 1);
    assert.ok(fadeAt(plan, 19) > 0 && fadeAt(plan, 19) < 1 && fadeAt(plan, 20) < fadeAt(plan, 19));
    assert.equal(fadeAt(plan, 26), 0);
    assert.equal(fadeAt(scenarioPlan(base), 26), 1);
  });
});

describe('scenarioTruth', () => {
  it('lists idle, free-rider and silent agents by role, and a lone contributor as dominant', () => {
    assert.deepEqual(scenarioTruth({ ...base, roles: ['free-rider', 'honest', 'silent'] }), [
      { kind: 'free-rider', agent: 'planner' },
      { kind: 'silent', agent: 'verifier' },
      { kind: 'dominant', agent: 'solver' },
    ]);
    assert.deepEqual(scenarioTruth({ ...base, roles: ['idle', 'honest', 'honest'] }), [
      { kind: 'idle', agent: 'planner' },
    ]);
    assert.deepEqual(scenarioTruth({ ...base, roles: ['honest', 'honest', 'honest'] }), []);
  });

  it('lists a dominant agent and its honest partners as free-riders', () => {
    assert.deepEqual(scenarioTruth({ ...base, mechanism: 'vote', roles: ['honest', 'dominant', 'free-rider'] }), [
      { kind: 'free-rider', agent: 'voter_1' },
      { kind: 'dominant', agent: 'voter_2' },
      { kind: 'free-rider', agent: 'voter_3' },
    ]);
  });

  it('lists decoupling over [from, steps] and free-riding over the late range (dominant for a lone partner)', () => {
    const spec: ScenarioSpec = {
      ...base,
      roles: ['honest', 'honest', 'honest'],
      steps: 40,
      decoupling: { agent: 2, from: 12 },
    };
    assert.deepEqual(scenarioTruth(spec), [
      { kind: 'decoupling', agent: 'verifier', steps: [12, 40] },
      { kind: 'free-rider', agent: 'verifier', steps: [26, 40] },
    ]);
    const pair: ScenarioSpec = {
      ...spec,
      teamSize: 2,
      roles: ['honest', 'honest'],
      decoupling: { agent: 1, from: 12 },
    };
    assert.deepEqual(scenarioTruth(pair).at(-1), { kind: 'dominant', agent: 'solver', steps: [26, 40] });
  });
});
