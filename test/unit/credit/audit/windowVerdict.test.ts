import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { windowVerdict } from '../../../../src/credit/audit/windowVerdict';
import { studentTQuantile } from '../../../../src/credit/game/studentTQuantile';
import { assertClose } from '../stats/assertClose';
import { e13Differences } from '../stats/e13Differences';

/**
 * E13 as paired binary rewards: b = 3 episodes (R = 1, R^{(−i)} = 0), c = 1 (R = 0, R^{(−i)} = 1), and
 * 96 concordant episodes of which `bothSucceed` have R = R^{(−i)} = 1. Credit d = R − R^{(−i)}.
 */
function e13(bothSucceed: number): { credit: number[]; rewards: number[]; without: number[] } {
  const rewards = [1, 1, 1, 0, ...Array.from({ length: 96 }, (_, k) => (k < bothSucceed ? 1 : 0))];
  const without = [0, 0, 0, 1, ...rewards.slice(4)];
  return { credit: rewards.map((r, e) => r - (without[e] ?? NaN)), rewards, without };
}

describe('windowVerdict', () => {
  it('windowVerdict(E13) reproduces the oracle evidence: mean 0.02, sd 0.2, 90% CI (−0.012897, 0.052897), McNemar p 0.625', () => {
    const { credit, rewards, without } = e13(0);
    assert.deepEqual(credit, e13Differences);
    const { evidence } = windowVerdict(credit, rewards, without, { epsilon: 0.05 });
    assert.equal(evidence.n, 100);
    assertClose([evidence.meanCredit, evidence.sd], [0.02, 0.2]);
    assertClose(evidence.ci90, [-0.012897, 0.052897]);
    assertClose(evidence.ci95, [-0.019199, 0.059199]);
    assertClose(evidence.mcnemarP ?? NaN, 0.625, 1e-12);
    assertClose([evidence.meanReward, evidence.partnerSolo ?? NaN], [0.03, 0.01], 1e-12);
    assert.equal(evidence.partnerSoloAssumed, false);
    // (1.644854 · 0.2 / 0.05)² = 43.29 → 44.
    assert.equal(evidence.requiredEpisodes, 44);
  });

  it('windowVerdict(E13, ε = 0.05) is inconclusive: the upper 90% bound 0.0529 exceeds ε', () => {
    const { credit, rewards, without } = e13(0);
    assert.equal(windowVerdict(credit, rewards, without, { epsilon: 0.05 }).verdict, 'inconclusive');
    const succeeding = e13(80);
    assert.equal(
      windowVerdict(succeeding.credit, succeeding.rewards, succeeding.without, { epsilon: 0.05 }).verdict,
      'inconclusive',
    );
  });

  it('windowVerdict(E13, ε = 0.10) is idle when R̄ = 0.03 ≤ ε: the 90% CI lies inside ±ε and partner-solo 0.01 ≥ 0.03 − ε', () => {
    const { credit, rewards, without } = e13(0);
    assert.equal(windowVerdict(credit, rewards, without, { epsilon: 0.1 }).verdict, 'idle');
  });

  it('windowVerdict(E13 with 80 joint successes, ε = 0.10) is free-rider: idle and R̄ = 0.83 > ε (partner-solo 0.81 ≥ 0.73)', () => {
    const { credit, rewards, without } = e13(80);
    const { verdict, evidence } = windowVerdict(credit, rewards, without, { epsilon: 0.1 });
    assert.equal(verdict, 'free-rider');
    assertClose([evidence.meanReward, evidence.partnerSolo ?? NaN], [0.83, 0.81], 1e-12);
    assertClose(evidence.mcnemarP ?? NaN, 0.625, 1e-12);
  });

  it('windowVerdict(E13 with 80 joint successes) uses the §5.2 default ε = max(0.02, 0.05·0.83) = 0.0415: inconclusive', () => {
    const { credit, rewards, without } = e13(80);
    const { verdict, evidence } = windowVerdict(credit, rewards, without);
    assertClose(evidence.epsilon, 0.0415, 1e-12);
    assert.equal(verdict, 'inconclusive');
  });

  it('windowVerdict(exact-zero credit over 120 episodes, rewards mostly 1, without unknown) is free-rider with partner-solo assumed', () => {
    const rewards = Array.from({ length: 120 }, (_, e) => (e % 12 === 0 ? 0 : 1));
    const { verdict, evidence } = windowVerdict(Array<number>(120).fill(0), rewards, null);
    assert.equal(verdict, 'free-rider');
    assert.deepEqual([evidence.ci90, evidence.ci95, evidence.sd], [[0, 0], [0, 0], 0]);
    assert.equal(evidence.partnerSolo, null);
    assert.equal(evidence.partnerSoloAssumed, true);
    assert.equal(evidence.mcnemarP, null);
    assertClose(evidence.epsilon, 0.05 * (110 / 120), 1e-12);
  });

  it('windowVerdict(exact-zero credit, without = rewards) is free-rider with partner-solo tested (McNemar p = 1)', () => {
    const rewards = Array.from({ length: 120 }, (_, e) => (e % 12 === 0 ? 0 : 1));
    const { verdict, evidence } = windowVerdict(Array<number>(120).fill(0), rewards, rewards);
    assert.equal(verdict, 'free-rider');
    assert.equal(evidence.partnerSoloAssumed, false);
    assert.equal(evidence.mcnemarP, 1);
  });

  it('windowVerdict(credit ≈ 0 but partners fail alone: mean v(N\\{i}) 0.5 < R̄ − ε) is inconclusive, not idle', () => {
    // Non-LOO credit (e.g. Shapley) can be ≈ 0 while the partners cannot solve the task alone.
    const rewards = Array<number>(100).fill(1);
    const without = Array.from({ length: 100 }, (_, e) => e % 2);
    assert.equal(
      windowVerdict(Array<number>(100).fill(0), rewards, without, { epsilon: 0.05 }).verdict,
      'inconclusive',
    );
  });

  it('windowVerdict(credit 1 in 60 of 100 episodes) contributes: the 95% lower bound ≫ ε', () => {
    const credit = Array.from({ length: 100 }, (_, e) => (e < 60 ? 1 : 0));
    const { verdict, evidence } = windowVerdict(credit, Array<number>(100).fill(1), null);
    assert.equal(verdict, 'contributes');
    assert.ok(evidence.ci95[0] > evidence.epsilon);
  });

  it('windowVerdict(credit −1 in 30 of 100 episodes) is harmful: the 95% upper bound < −ε', () => {
    const credit = Array.from({ length: 100 }, (_, e) => (e < 30 ? -1 : 0));
    const rewards = Array.from({ length: 100 }, (_, e) => (e < 30 ? 0 : 1));
    const without = Array<number>(100).fill(1);
    const { verdict, evidence } = windowVerdict(credit, rewards, without);
    assert.equal(verdict, 'harmful');
    assert.ok((evidence.mcnemarP ?? 1) < 1e-8);
  });

  it('windowVerdict(19 episodes, default minEpisodes 20) is inconclusive even for a clear contribution', () => {
    const { verdict, evidence } = windowVerdict(Array<number>(19).fill(1), Array<number>(19).fill(1), null);
    assert.equal(verdict, 'inconclusive');
    assert.equal(evidence.n, 19);
  });

  it('windowVerdict(10 episodes, minEpisodes 5) uses t intervals with 9 df below n = 20', () => {
    const credit = [0.3, 0.5, 0.4, 0.6, 0.2, 0.5, 0.4, 0.3, 0.6, 0.2];
    const { verdict, evidence } = windowVerdict(credit, Array<number>(10).fill(1), null, { minEpisodes: 5 });
    const half95 = studentTQuantile(0.975, 9) * (evidence.sd / Math.sqrt(10));
    assertClose(evidence.ci95, [0.4 - half95, 0.4 + half95], 1e-12);
    assert.equal(verdict, 'contributes');
  });

  it('windowVerdict(credit with NaN episodes) skips them: n counts finite credit only', () => {
    const credit = [...Array<number>(30).fill(0), NaN, NaN];
    const { evidence } = windowVerdict(credit, Array<number>(32).fill(1), null);
    assert.equal(evidence.n, 30);
  });

  it('windowVerdict(non-binary rewards) reports no McNemar p', () => {
    const rewards = Array.from({ length: 40 }, (_, e) => 0.5 + (e % 2) * 0.25);
    const { evidence } = windowVerdict(Array<number>(40).fill(0), rewards, rewards);
    assert.equal(evidence.mcnemarP, null);
  });

  it('windowVerdict(misaligned arrays or ε ≤ 0) throws RangeError', () => {
    assert.throws(() => windowVerdict([0, 0], [1], null), RangeError);
    assert.throws(() => windowVerdict([0, 0], [1, 1], [1]), RangeError);
    assert.throws(() => windowVerdict([0, 0], [1, 1], null, { epsilon: 0 }), RangeError);
  });
});
