import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectedRole } from '../../../../src/demo/auditScenarios/scenario';
import { scenarioTruth } from '../../../../src/demo/auditScenarios/scenario';
import { scenarioName, scenarioPlan } from '../../../../src/demo/auditScenarios/scenarioPlan';
import { validationSuite } from '../../../../src/demo/auditScenarios/scenarioSuite';

const suite = validationSuite();
const withRole = (role: InjectedRole): number => suite.filter((s) => scenarioPlan(s).roles.includes(role)).length;

describe('validationSuite', () => {
  it('validationSuite() has 24 valid scenarios with unique names and at most 40,000 episodes', () => {
    assert.equal(suite.length, 24);
    assert.equal(new Set(suite.map(scenarioName)).size, 24);
    const episodes = suite.reduce((sum, s) => sum + s.steps * s.groupsPerStep * s.samplesPerGroup, 0);
    assert.equal(episodes, 17_920);
    assert.ok(episodes <= 40_000);
  });

  it('covers team sizes 2–5, both mechanisms and noise 0 / 0.05 / 0.15', () => {
    assert.deepEqual([...new Set(suite.map((s) => s.teamSize))].sort(), [2, 3, 4, 5]);
    assert.deepEqual([...new Set(suite.map((s) => s.mechanism))].sort(), ['pipeline', 'vote']);
    assert.deepEqual([...new Set(suite.map((s) => s.noise))].sort(), [0, 0.05, 0.15]);
  });

  it('injects each role in ≥ 4 scenarios, with ≥ 4 honest-only controls and ≥ 3 decoupling runs', () => {
    for (const role of ['idle', 'free-rider', 'silent', 'dominant'] as const) assert.ok(withRole(role) >= 4, role);
    const controls = suite.filter((s) => !s.decoupling && s.roles.every((r) => r === 'honest'));
    assert.ok(controls.length >= 4);
    assert.ok(controls.every((s) => scenarioTruth(s).length === 0));
    assert.ok(suite.filter((s) => s.decoupling).length >= 3);
    const kinds = new Set(suite.flatMap((s) => scenarioTruth(s).map((t) => t.kind)));
    assert.deepEqual([...kinds].sort(), ['decoupling', 'dominant', 'free-rider', 'idle', 'silent']);
  });

  it('validationSuite(seed) keeps the design and changes the seeds', () => {
    const other = validationSuite(2);
    assert.deepEqual(
      other.map((s) => s.roles),
      suite.map((s) => s.roles),
    );
    assert.equal(other[0]?.seed, 2001);
    assert.equal(suite[0]?.seed, 1001);
  });
});
