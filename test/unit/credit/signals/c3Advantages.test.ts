import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { c3Advantages, leaveOneOutAdvantages } from '../../../../src/credit/signals/c3Advantages';
import { assertClose } from '../stats/assertClose';

describe('leaveOneOutAdvantages', () => {
  const groups = [
    [1, 0.5],
    [0, 1, 1, 0.25],
    [3, -1, 2],
  ];
  for (const rewards of groups) {
    it(`leaveOneOutAdvantages([${rewards.join(', ')}]) satisfies A_j = n/(n−1)(x_j − mean) (E9 identity)`, () => {
      const n = rewards.length;
      const mean = rewards.reduce((s, r) => s + r, 0) / n;
      assertClose(
        leaveOneOutAdvantages(rewards),
        rewards.map((r) => (n / (n - 1)) * (r - mean)),
        1e-12,
      );
      assertClose(
        leaveOneOutAdvantages(rewards),
        rewards.map((r, j) => r - (rewards.reduce((s, x) => s + x, 0) - rewards[j]!) / (n - 1)),
        1e-12,
      );
    });
  }

  it('leaveOneOutAdvantages(rewards) gives 0 to a group of one and nothing to an empty group', () => {
    assertClose(leaveOneOutAdvantages([0.7]), [0], 0);
    assert.equal(leaveOneOutAdvantages([]).length, 0);
  });
});

describe('c3Advantages', () => {
  it('c3Advantages(leaves, [2, 2]) reproduces E9: node rewards (1, ½), Reasoner (½, −½), Actor (0, 0) and (−1, 1)', () => {
    const result = c3Advantages([1, 1, 0, 1], [2, 2]);
    assert.ok(result.ok);
    const { nodeRewards, advantages } = result.value;
    assertClose(nodeRewards[0]!, [1, 0.5], 1e-15);
    assertClose(advantages[0]!, [0.5, -0.5], 1e-15);
    assertClose(nodeRewards[1]!, [1, 1, 0, 1], 0);
    assertClose(advantages[1]!, [0, 0, -1, 1], 1e-15);
  });

  it('c3Advantages(leaves, [2, 4]) averages each Reasoner node over its four Actor leaves', () => {
    const result = c3Advantages([1, 1, 1, 0, 0, 0, 1, 0], [2, 4]);
    assert.ok(result.ok);
    assertClose(result.value.nodeRewards[0]!, [0.75, 0.25], 1e-15);
    assertClose(result.value.advantages[0]!, [0.5, -0.5], 1e-15);
    assertClose(result.value.advantages[1]!, [1 / 3, 1 / 3, 1 / 3, -1, -1 / 3, -1 / 3, 1, -1 / 3], 1e-15);
  });

  const failures = [
    { leaves: [1, 0, 1], fanout: [2, 2], message: /3 leaf rewards, but fanout \[2, 2\] makes 4 rollouts/ },
    { leaves: [1], fanout: [], message: /fanout is empty/ },
    { leaves: [1, 0], fanout: [2, 0.5], message: /fanout 0\.5 is not a positive integer/ },
  ];
  for (const f of failures) {
    it(`c3Advantages(leaves, [${f.fanout.join(', ')}]) rejects a malformed tree`, () => {
      const result = c3Advantages(f.leaves, f.fanout);
      assert.ok(!result.ok);
      assert.match(result.error, f.message);
    });
  }
});
