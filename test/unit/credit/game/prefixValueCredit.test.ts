import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentCreditFromMessages, prefixValueCredit } from '../../../../src/credit/game/prefixValueCredit';
import { assertClose, seeded, sum } from './games';
import { e11Authors, e11PrefixValues } from './oracles';

describe('prefixValueCredit', () => {
  it('prefixValueCredit(V) gives r = (+0.2, −0.3, +0.2, −0.5) for E11, summing to R − V(h_0) = −0.4', () => {
    const r = prefixValueCredit(e11PrefixValues);
    assertClose(r, [0.2, -0.3, 0.2, -0.5], 1e-12);
    assert.ok(Math.abs(sum(r) + 0.4) < 1e-12);
  });

  it('prefixValueCredit(V) sums to V(h_T) − V(h_0) on seeded random prefix values', () => {
    const random = seeded(88);
    for (let c = 0; c < 60; c++) {
      const values = Array.from({ length: 1 + (c % 12) }, () => random());
      const r = prefixValueCredit(values);
      assert.equal(r.length, values.length - 1);
      if (r.length > 0) assert.ok(Math.abs(sum(r) - (values[values.length - 1]! - values[0]!)) < 1e-12);
    }
  });

  it('prefixValueCredit(V) returns an empty array for fewer than two prefix values and NaN next to a NaN value', () => {
    assert.equal(prefixValueCredit([]).length, 0);
    assert.equal(prefixValueCredit([0.5]).length, 0);
    assertClose(prefixValueCredit([0.5, NaN, 0.5, 1]), [NaN, NaN, 0.5], 0);
  });
});

describe('agentCreditFromMessages', () => {
  it('agentCreditFromMessages(r, authors, 2) gives A = +0.4, B = −0.8 for E11 (sum −0.4)', () => {
    const agents = agentCreditFromMessages(prefixValueCredit(e11PrefixValues), e11Authors, 2);
    assertClose(agents, [0.4, -0.8], 1e-12);
    assert.ok(Math.abs(sum(agents) + 0.4) < 1e-12);
  });

  it('agentCreditFromMessages(r, authors, n) gives 0 to silent agents and NaN to the author of a NaN credit', () => {
    assertClose(agentCreditFromMessages([1, 2], [2, 2], 3), [0, 0, 3], 0);
    assertClose(agentCreditFromMessages([1, NaN], [0, 1], 2), [1, NaN], 0);
    assert.equal(agentCreditFromMessages([], [], 0).length, 0);
  });

  it('agentCreditFromMessages(r, authors, n) throws a RangeError for a bad author or mismatched lengths', () => {
    assert.throws(() => agentCreditFromMessages([1], [2], 2), /outside/);
    assert.throws(() => agentCreditFromMessages([1, 2], [0], 2), RangeError);
    assert.throws(() => agentCreditFromMessages([1], [0], -1), RangeError);
  });
});
