import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditShares, isDominant } from '../../../../src/credit/audit/creditShare';
import { assertClose } from '../stats/assertClose';

describe('creditShares', () => {
  const table: { credit: number[]; shares: number[]; why: string }[] = [
    { credit: [3, 1, 0], shares: [0.75, 0.25, 0], why: 'positive credit normalised' },
    { credit: [2, -1, 2], shares: [0.5, 0, 0.5], why: 'negative credit counts as 0' },
    { credit: [0, 0], shares: [0, 0], why: 'all zero → zeros' },
    { credit: [-1, -0.5], shares: [0, 0], why: 'all negative → zeros' },
    { credit: [NaN, 1], shares: [0, 1], why: 'NaN counts as 0' },
    { credit: [1, 0], shares: [1, 0], why: 'E14 system A LOO (1, 0): agent 1 holds all the credit' },
    { credit: [0.5, 0.5], shares: [0.5, 0.5], why: 'E14 system B Shapley (½, ½)' },
    { credit: [], shares: [], why: 'no agents' },
  ];
  for (const row of table) {
    it(`creditShares([${row.credit.join(', ')}]) = [${row.shares.join(', ')}] (${row.why})`, () => {
      const shares = creditShares(row.credit);
      assert.ok(shares instanceof Float64Array);
      assertClose(shares, row.shares, 1e-15);
    });
  }

  it('creditShares([Infinity, 1]) is all zeros (no finite total)', () =>
    assertClose(creditShares([Infinity, 1]), [0, 0]));
});

describe('isDominant', () => {
  it('isDominant(shares, i) is true at or above 0.9 and false below', () => {
    const shares = creditShares([0.95, 0.05]);
    assert.equal(isDominant(shares, 0), true);
    assert.equal(isDominant(shares, 1), false);
    assert.equal(isDominant([0.9, 0.1], 0), true);
    assert.equal(isDominant([0.89, 0.11], 0), false);
  });

  it('isDominant(shares, i, 0.7) uses the given threshold', () => assert.equal(isDominant([0.75, 0.25], 0, 0.7), true));

  it('isDominant(shares, i) is false for an index outside shares or a NaN share', () => {
    assert.equal(isDominant([1], 3), false);
    assert.equal(isDominant([1], -1), false);
    assert.equal(isDominant([NaN], 0), false);
  });
});
