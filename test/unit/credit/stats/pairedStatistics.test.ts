import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalInterval, pairedStatistics } from '../../../../src/credit/stats/pairedStatistics';
import { assertClose } from './assertClose';
import { e13Differences } from './e13Differences';

describe('pairedStatistics', () => {
  it('pairedStatistics(d) gives mean 0.02, sd 0.2 (ddof 1) and SE 0.02 (E13)', () => {
    const s = pairedStatistics(e13Differences);
    assert.equal(s.n, 100);
    assertClose(s.mean, 0.02, 1e-15);
    assertClose(s.sd, 0.2, 1e-15);
    assertClose(s.se, 0.02, 1e-15);
  });

  it('pairedStatistics(d) gives the E13 normal intervals: 90% (−0.012897, 0.052897), 95% (−0.019199, 0.059199)', () => {
    const s = pairedStatistics(e13Differences);
    assertClose(s.ci90, [-0.012897, 0.052897]);
    assertClose(s.ci95, [-0.019199, 0.059199]);
  });

  it('pairedStatistics(d) skips NaN differences (missing counterfactuals)', () => {
    const s = pairedStatistics([NaN, ...e13Differences, NaN]);
    assert.equal(s.n, 100);
    assertClose(s.sd, 0.2, 1e-15);
  });

  it('pairedStatistics(d) is NaN for empty input and has NaN spread for one value', () => {
    const empty = pairedStatistics([]);
    assert.equal(empty.n, 0);
    assert.ok(Number.isNaN(empty.mean) && Number.isNaN(empty.sd) && Number.isNaN(empty.ci95[0]));
    const one = pairedStatistics([0.5]);
    assert.equal(one.mean, 0.5);
    assert.ok(Number.isNaN(one.sd) && Number.isNaN(one.ci90[1]));
  });

  it('pairedStatistics(d) gives a zero-width interval when every difference is equal', () => {
    const s = pairedStatistics([0, 0, 0]);
    assert.deepEqual([s.sd, ...s.ci95], [0, 0, 0]);
  });
});

describe('normalInterval', () => {
  it('normalInterval(mean, se, confidence) is mean ± z·se', () => {
    assertClose(normalInterval(1, 0.5, 0.95), [1 - 0.979982, 1 + 0.979982]);
    assertClose(normalInterval(0, 1, 0.9), [-1.644854, 1.644854]);
  });

  it('normalInterval(mean, se, confidence) throws for a confidence outside (0, 1)', () => {
    assert.throws(() => normalInterval(0, 1, 1), RangeError);
    assert.throws(() => normalInterval(0, 1, 95), RangeError);
  });
});
