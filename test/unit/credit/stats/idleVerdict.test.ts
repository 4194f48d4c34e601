import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultVerdictEpsilon, idleVerdict, requiredSampleSize } from '../../../../src/credit/stats/idleVerdict';
import { pairedStatistics } from '../../../../src/credit/stats/pairedStatistics';
import { e13Differences } from './e13Differences';

describe('idleVerdict', () => {
  const e13 = pairedStatistics(e13Differences);

  it('idleVerdict(E13, 0.05, true) is inconclusive: the 90% upper bound 0.0529 exceeds ε', () => {
    assert.equal(idleVerdict(e13, 0.05, true), 'inconclusive');
  });

  it('idleVerdict(E13, 0.10, true) is idle: the 90% interval lies inside (−ε, ε)', () => {
    assert.equal(idleVerdict(e13, 0.1, true), 'idle');
  });

  it('idleVerdict(E13, 0.10, false) is inconclusive without partner-solo competence', () => {
    assert.equal(idleVerdict(e13, 0.1, false), 'inconclusive');
  });

  const table = [
    {
      name: 'contributes when the 95% lower bound exceeds ε',
      ci95: [0.06, 0.2],
      ci90: [0.07, 0.19],
      verdict: 'contributes',
    },
    {
      name: 'harmful when the 95% upper bound is below −ε',
      ci95: [-0.2, -0.06],
      ci90: [-0.19, -0.07],
      verdict: 'harmful',
    },
    {
      name: 'inconclusive when the 95% lower bound equals ε',
      ci95: [0.05, 0.2],
      ci90: [0.06, 0.19],
      verdict: 'inconclusive',
    },
    { name: 'inconclusive for NaN intervals', ci95: [NaN, NaN], ci90: [NaN, NaN], verdict: 'inconclusive' },
  ] as const;
  for (const row of table) {
    it(`idleVerdict(statistics, 0.05, true) is ${row.name}`, () => {
      assert.equal(idleVerdict({ ci90: row.ci90, ci95: row.ci95 }, 0.05, true), row.verdict);
    });
  }

  it('idleVerdict(statistics, ε, partnerSolo) throws for a non-positive ε', () => {
    assert.throws(() => idleVerdict(e13, 0, true), RangeError);
  });
});

describe('requiredSampleSize', () => {
  it('requiredSampleSize(0.3, 0.05) is 98 (§5.2)', () => assert.equal(requiredSampleSize(0.3, 0.05), 98));

  it('requiredSampleSize(sd, ε) grows with sd²/ε² and is at least 2', () => {
    assert.equal(requiredSampleSize(0.2, 0.05), Math.ceil((1.6448536269514722 * 4) ** 2));
    assert.equal(requiredSampleSize(0, 0.05), 2);
    assert.ok(Number.isNaN(requiredSampleSize(NaN, 0.05)));
  });

  it('requiredSampleSize(sd, ε, α) uses z_{1−α}', () => {
    assert.equal(requiredSampleSize(0.3, 0.05, 0.025), Math.ceil((1.959963984540054 * 6) ** 2));
    assert.throws(() => requiredSampleSize(0.3, 0.05, 0.7), RangeError);
  });
});

describe('defaultVerdictEpsilon', () => {
  it('defaultVerdictEpsilon(R̄) is max(0.02, 5% of R̄) (§5.2)', () => {
    assert.equal(defaultVerdictEpsilon(0.2), 0.02);
    assert.equal(defaultVerdictEpsilon(0.8), 0.04000000000000001);
    assert.equal(defaultVerdictEpsilon(NaN), 0.02);
  });
});
