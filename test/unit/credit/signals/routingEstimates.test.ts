import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routingMarginalContributions } from '../../../../src/credit/signals/routingContribution';
import { routingEstimates, type RoutingEstimate } from '../../../../src/credit/signals/routingEstimates';
import { assertClose } from '../stats/assertClose';

function estimate(...args: Parameters<typeof routingEstimates>): RoutingEstimate {
  const result = routingEstimates(...args);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

function failure(...args: Parameters<typeof routingEstimates>): string {
  const result = routingEstimates(...args);
  assert.ok(!result.ok, 'expected an error');
  return result.error;
}

/** E[estimate] over the logging distribution: sel ~ p, R ~ Bernoulli(q_sel). */
function expectedEstimates(probs: readonly number[], quality: readonly number[], field: 'mc' | 'ipw'): number[] {
  const expected = new Array<number>(probs.length).fill(0);
  for (const [sel, p] of probs.entries()) {
    const q = quality[sel]!;
    for (const [reward, chance] of [
      [1, q],
      [0, 1 - q],
    ] as const) {
      const values = estimate(probs, sel, reward)[field];
      for (let i = 0; i < probs.length; i++) expected[i]! += p * chance * values[i]!;
    }
  }
  return expected;
}

describe('routingEstimates', () => {
  // credit-methods.md §8 E5, single-decision IPW table (experts are 0-based here: sel 1 → 0).
  const probs = [0.7, 0.3];
  const table = [
    { logged: '(1, 1)', selected: 0, reward: 1, mc: [1, -3 / 7], ipw: [10 / 7, 0], wta: [1, 0] },
    { logged: '(2, 1)', selected: 1, reward: 1, mc: [-7 / 3, 1], ipw: [0, 10 / 3], wta: [0, 1] },
    { logged: '(1, 0)', selected: 0, reward: 0, mc: [0, 0], ipw: [0, 0], wta: [0, 0] },
    { logged: '(2, 0)', selected: 1, reward: 0, mc: [0, 0], ipw: [0, 0], wta: [0, 0] },
  ];
  for (const row of table) {
    it(`routingEstimates(probs, sel, R) reproduces the E5 row ${row.logged}`, () => {
      const e = estimate(probs, row.selected, row.reward);
      assertClose(e.mc, row.mc, 1e-12, 'mc');
      assertClose(e.ipw, row.ipw, 1e-12, 'ipw');
      assertClose(e.wta, row.wta, 0, 'wta');
      assert.equal(e.weight, 1);
    });
  }

  it('routingEstimates(probs, sel, R) rounds to the E5 decimals', () => {
    assertClose(estimate(probs, 0, 1).mc[1]!, -0.428571);
    assertClose(estimate(probs, 1, 1).mc[0]!, -2.333333);
    assertClose(estimate(probs, 0, 1).ipw[0]!, 1.428571);
    assertClose(estimate(probs, 1, 1).ipw[1]!, 3.333333);
  });

  it('routingEstimates(probs, sel, R) is unbiased for MC over the logging distribution (E5: −0.28, 0.12)', () => {
    assertClose(expectedEstimates(probs, [0.5, 0.9], 'mc'), [-0.28, 0.12], 1e-12);
  });

  it('routingEstimates(probs, sel, R) is unbiased for MC with three experts (E5: 3/50, 39/350, −27/200)', () => {
    const three = { probs: [0.5, 0.3, 0.2], quality: [0.6, 0.8, 0.0] };
    assertClose(expectedEstimates(three.probs, three.quality, 'mc'), [3 / 50, 39 / 350, -27 / 200], 1e-12);
    assertClose(routingMarginalContributions(three.probs, three.quality), [3 / 50, 39 / 350, -27 / 200], 1e-12);
  });

  it('routingEstimates(probs, sel, R) IPW r̂ is unbiased for standalone quality (R1)', () => {
    assertClose(expectedEstimates(probs, [0.5, 0.9], 'ipw'), [0.5, 0.9], 1e-12);
  });

  it('routingEstimates(probs, sel, R, behaviourProbs) applies the off-policy weight p_sel/μ_sel', () => {
    const e = estimate([0.6, 0.4], 1, 1, [0.5, 0.5]);
    assertClose(e.weight, 0.8, 1e-12);
    assertClose(e.mc, [-0.8 * 1.5, 0.8], 1e-12);
    assertClose(e.ipw, [0, 2], 1e-12);
    assertClose(e.wta, [0, 1], 0);
  });

  it('routingEstimates(probs, sel, R, behaviourProbs) is unbiased for the evaluated router off-policy', () => {
    const p = [0.6, 0.4];
    const mu = [0.2, 0.8];
    const q = [0.5, 0.9];
    const expected = [0, 0];
    for (const [sel, m] of mu.entries()) {
      const e = estimate(p, sel, 1, mu);
      for (let i = 0; i < 2; i++) expected[i]! += m * q[sel]! * e.mc[i]!;
    }
    assertClose(expected, routingMarginalContributions(p, q), 1e-12);
  });
});

describe('routingEstimates errors', () => {
  const cases: { name: string; args: Parameters<typeof routingEstimates>; message: RegExp }[] = [
    { name: 'no probabilities', args: [[], 0, 1], message: /router probabilities are missing/ },
    { name: 'a NaN probability', args: [[0.5, NaN], 0, 1], message: /expert 1 is missing or not a finite number/ },
    { name: 'a probability above 1', args: [[1.5, -0.5], 0, 1], message: /outside \[0, 1\]/ },
    { name: 'probabilities that do not sum to 1', args: [[0.7, 0.2], 0, 1], message: /sum to 0\.9.*not 1/ },
    { name: 'a selected expert out of range', args: [[0.7, 0.3], 2, 1], message: /selected expert 2 is not in 0\.\.1/ },
    { name: 'a fractional selected index', args: [[0.7, 0.3], 0.5, 1], message: /selected expert 0\.5/ },
    { name: 'a NaN reward', args: [[0.7, 0.3], 0, NaN], message: /reward NaN is not a finite number/ },
    {
      name: 'a selected expert with probability 0',
      args: [[1e-7, 1 - 1e-7, 0], 2, 1],
      message: /positivity fails: the logged expert 2/,
    },
    {
      name: 'a behaviour router over other experts',
      args: [[0.7, 0.3], 0, 1, [0.2, 0.3, 0.5]],
      message: /behaviour router has 3 experts/,
    },
    {
      name: 'a behaviour router that never picks a routed expert',
      args: [[0.7, 0.3], 0, 1, [1 - 1e-9, 1e-9 - 1e-9]],
      message: /expert 1 has router probability 0\.3 but behaviour probability 0/,
    },
    {
      name: 'an invalid behaviour distribution',
      args: [[0.7, 0.3], 0, 1, [0.2, 0.2]],
      message: /behaviour router probabilities sum to/,
    },
  ];
  for (const c of cases) {
    it(`routingEstimates(...) rejects ${c.name}`, () => assert.match(failure(...c.args), c.message));
  }

  it('routingEstimates(probs, sel, R) rejects a deterministic router: the losers are unidentified', () => {
    const message =
      "deterministic router: positivity fails, the losers' rewards are unidentified; score the logged losing responses instead";
    assert.ok(failure([1, 0], 0, 1).startsWith(message));
    assert.ok(failure([0.5, 0.5], 0, 1, [0, 1]).startsWith(message));
  });

  it('routingEstimates(..., experts) names the experts in its errors, not their indices', () => {
    const experts = ['router', 'math', 'code'];
    assert.match(failure([0, 1, 0], 1, 1, undefined, experts), /\(expert "math" has probability 1\)$/);
    assert.match(
      failure([0, 0.5, 0.5], 2, 1, [0, 1 - 1e-9, 1e-9 - 1e-9], experts),
      /positivity fails: the logged expert "code" has behaviour probability 0/,
    );
    assert.match(
      failure([0, 0.5, 0.5], -1, 1, undefined, experts),
      /^the selected expert is not one of the episode's agents \(router, math, code\)$/,
    );
    assert.match(
      failure([0, 1.5, -0.5], 1, 1, undefined, experts),
      /^router probability of expert "math" is 1\.5, outside \[0, 1\]$/,
    );
  });

  it('routingEstimates(probs, sel, R) accepts sums within routingProbabilityTolerance (0.001) of 1, as the indexer does', () => {
    assert.ok(routingEstimates([0.7 + 1e-4, 0.3], 0, 1).ok);
    assert.ok(routingEstimates([0.5, 0.499], 0, 1).ok);
    assert.ok(routingEstimates([0.5, 0.501], 0, 1).ok);
    assert.match(failure([0.5, 0.498], 0, 1), /router probabilities sum to 0\.998, not 1 \(tolerance 0\.001\)/);
  });
});
