import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultAuditThresholds,
  parseAuditThresholds,
  type AuditThresholds,
} from '../../../../src/credit/audit/auditThresholds';

function parsed(input: Record<string, unknown> | undefined): AuditThresholds {
  const result = parseAuditThresholds(input);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

describe('defaultAuditThresholds', () => {
  it('defaultAuditThresholds holds the §5 / T10 defaults and no fixed ε', () => {
    assert.deepEqual(defaultAuditThresholds, {
      minEpisodesPerWindow: 100,
      alpha: 0.05,
      dominantShare: 0.9,
      copyThreshold: 0.8,
      minTokens: 5,
      freeRiderMinReward: 0.1,
    });
  });
});

describe('parseAuditThresholds', () => {
  it('parseAuditThresholds(undefined | {}) gives the defaults', () => {
    assert.deepEqual(parsed(undefined), defaultAuditThresholds);
    assert.deepEqual(parsed({}), defaultAuditThresholds);
  });

  it('parseAuditThresholds(settings) overrides the given keys, treats null as absent and does not mutate the defaults', () => {
    const thresholds = parsed({
      epsilon: 0.03,
      minEpisodesPerWindow: 200,
      alpha: null,
      freeRiderMinReward: 0.2,
      minTokens: 0,
    });
    assert.deepEqual(thresholds, {
      ...defaultAuditThresholds,
      epsilon: 0.03,
      minEpisodesPerWindow: 200,
      freeRiderMinReward: 0.2,
      minTokens: 0,
    });
    assert.equal(defaultAuditThresholds.epsilon, undefined);
    assert.ok(Object.isFrozen(defaultAuditThresholds));
  });

  it('parseAuditThresholds(CLI strings) reads numeric strings', () => {
    assert.deepEqual(parsed({ alpha: '0.01', copyThreshold: ' 0.9 ', dominantShare: '1' }), {
      ...defaultAuditThresholds,
      alpha: 0.01,
      copyThreshold: 0.9,
      dominantShare: 1,
    });
  });

  const failures: { name: string; input: Record<string, unknown>; message: RegExp }[] = [
    {
      name: 'an unknown key',
      input: { epsillon: 0.1 },
      message: /unknown setting 'epsillon' \(known: epsilon, minEpisodesPerWindow/,
    },
    { name: 'a boolean', input: { alpha: true }, message: /alpha must be a number, got true/ },
    { name: 'a non-numeric string', input: { epsilon: 'small' }, message: /epsilon must be a number, got "small"/ },
    { name: 'an empty string', input: { minTokens: '' }, message: /minTokens must be a number, got ""/ },
    { name: 'an array', input: { copyThreshold: [0.8] }, message: /copyThreshold must be a number, got \[0.8\]/ },
    { name: 'ε = 0', input: { epsilon: 0 }, message: /epsilon must be in \(0, ∞\), got 0/ },
    { name: 'a negative ε', input: { epsilon: -0.1 }, message: /epsilon must be in \(0, ∞\)/ },
    { name: 'an infinite ε', input: { epsilon: Infinity }, message: /epsilon must be in \(0, ∞\), got Infinity/ },
    { name: 'alpha 0.5', input: { alpha: 0.5 }, message: /alpha must be in \(0, 0.5\), got 0.5/ },
    {
      name: 'a dominant share of 0.5',
      input: { dominantShare: 0.5 },
      message: /dominantShare must be in \(0.5, 1\], got 0.5/,
    },
    {
      name: 'a copy threshold above 1',
      input: { copyThreshold: 1.2 },
      message: /copyThreshold must be in \(0, 1\], got 1.2/,
    },
    { name: 'a fractional minTokens', input: { minTokens: 2.5 }, message: /minTokens must be an integer, got 2.5/ },
    {
      name: 'minEpisodesPerWindow 1',
      input: { minEpisodesPerWindow: 1 },
      message: /minEpisodesPerWindow must be in \[2, ∞\), got 1/,
    },
    {
      name: 'a negative free-rider reward floor',
      input: { freeRiderMinReward: -0.5 },
      message: /freeRiderMinReward must be in \[0, ∞\), got -0.5/,
    },
  ];
  for (const f of failures) {
    it(`parseAuditThresholds(input) rejects ${f.name}`, () => {
      const result = parseAuditThresholds(f.input);
      assert.ok(!result.ok);
      assert.match(result.error, f.message);
    });
  }
});
