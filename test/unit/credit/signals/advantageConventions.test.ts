import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  advantagesFor,
  allAdvantageConventions,
  findAdvantageConvention,
} from '../../../../src/credit/signals/advantageConventions';
import { assertClose } from '../stats/assertClose';

// credit-methods.md §8 E7: R = [1,1,0,1], mean 0.75, Σ(x − mean)² = 0.75 → sample std 0.5,
// population std sqrt(0.1875).
const shared = [1, 1, 0, 1];
const deviations = [0.25, 0.25, -0.75, 0.25];

const expected: Record<string, number[]> = {
  verl: deviations.map((d) => d / (0.5 + 1e-6)),
  trl: deviations.map((d) => d / (0.5 + 1e-4)),
  openrlhf: deviations.map((d) => d / (0.5 + 1e-9)),
  drmas: deviations.map((d) => d / (0.5 + 1e-6)),
  c3: deviations.map((d) => d / Math.sqrt(0.1875 + 1e-8)),
  'dr-grpo': deviations,
};

describe('advantageConventions', () => {
  for (const [name, values] of Object.entries(expected)) {
    it(`advantagesFor("${name}", [1,1,0,1]) matches the hand-computed advantages`, () => {
      assertClose(advantagesFor(findAdvantageConvention(name)!, shared), values, 1e-15);
    });
  }

  it('advantagesFor is within 1e-4 of the E7 oracle: ddof 1 for verl/trl/openrlhf, ddof 0 for c3', () => {
    for (const name of ['verl', 'trl', 'openrlhf', 'drmas'] as const)
      assertClose(advantagesFor(name, shared), [0.5, 0.5, -1.5, 0.5], 1e-3);
    assertClose(advantagesFor('c3', shared), [0.57735, 0.57735, -1.732051, 0.57735], 1e-5);
    assertClose(advantagesFor('dr-grpo', [0, 1, 0, 1]), [-0.5, 0.5, -0.5, 0.5], 1e-15);
  });

  it('advantagesFor on a group of one follows each trainer: verl keeps x/(1+eps), trl and c3 give 0', () => {
    assertClose(advantagesFor('verl', [1]), [1 / (1 + 1e-6)], 1e-15);
    assertClose(advantagesFor('drmas', [2]), [2 / (1 + 1e-6)], 1e-15);
    assertClose(advantagesFor('dr-grpo', [0.5]), [0.5], 1e-15);
    assert.deepEqual([...advantagesFor('trl', [1])], [0]);
    assert.deepEqual([...advantagesFor('c3', [1])], [0]);
    assert.deepEqual([...advantagesFor('openrlhf', [1])], [0]);
  });

  it('advantagesFor gives 0 to a constant group and NaN to NaN values under every convention', () => {
    for (const c of allAdvantageConventions()) {
      assert.deepEqual([...advantagesFor(c, [1, 1, 1])], [0, 0, 0], c.name);
      const a = advantagesFor(c, [1, NaN, 0]);
      assert.ok(Number.isNaN(a[1]), c.name);
    }
  });

  it('findAdvantageConvention accepts aliases and any case, and returns undefined for unknown names', () => {
    assert.equal(findAdvantageConvention('MAGRPO')?.name, 'c3');
    assert.equal(findAdvantageConvention('Dr-MAS')?.name, 'drmas');
    assert.equal(findAdvantageConvention('ppo'), undefined);
  });

  it('allAdvantageConventions lists every convention with a source commit', () => {
    const all = allAdvantageConventions();
    assert.deepEqual(
      all.map((c) => c.name),
      ['verl', 'trl', 'openrlhf', 'drmas', 'c3', 'dr-grpo'],
    );
    for (const c of all) assert.match(c.source, /@[0-9a-f]{40} /, c.name);
  });
});
