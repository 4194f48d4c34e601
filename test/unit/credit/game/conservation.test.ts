import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isConserved } from '../../../../src/credit/game/conservation';
import { owenValues } from '../../../../src/credit/game/owenValues';
import { agentCreditFromMessages, prefixValueCredit } from '../../../../src/credit/game/prefixValueCredit';
import { e10Unions, e10Value, e11Authors, e11PrefixValues } from './oracles';

describe('isConserved', () => {
  it('isConserved(parts, total) accepts E10 Owen messages against agent Shapley and E11 messages against R − V(h_0)', () => {
    const owen = owenValues(e10Unions, 4, e10Value);
    assert.ok(isConserved([owen[0]!, owen[1]!], 2 / 5));
    assert.ok(isConserved([owen[2]!, owen[3]!], 3 / 5));
    const r = prefixValueCredit(e11PrefixValues);
    assert.ok(isConserved(r, 0 - 0.4));
    assert.ok(isConserved(agentCreditFromMessages(r, e11Authors, 2), -0.4));
  });

  it('isConserved(parts, total) rejects a gap above the tolerance, and NaN', () => {
    assert.equal(isConserved([2 / 15, 2 / 15], 2 / 5), false);
    assert.equal(isConserved([0.1, 0.2], 0.3 + 1e-6), false);
    assert.equal(isConserved([0.1, 0.2], 0.3 + 1e-6, 1e-5), true);
    assert.equal(isConserved([NaN], 0), false);
    assert.equal(isConserved([1], NaN), false);
  });

  it('isConserved([], 0) holds: no parts sum to 0', () => {
    assert.ok(isConserved([], 0));
    assert.equal(isConserved([], 1), false);
  });
});
