import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../../../src/core/mulberry32';
import { shuffle } from '../../../../src/credit/game/shuffle';

describe('mulberry32', () => {
  it('mulberry32(seed) repeats its sequence for a seed, differs across seeds, and stays in [0, 1)', () => {
    const draw = (seed: number): number[] => Array.from({ length: 1000 }, mulberry32(seed));
    assert.deepEqual(draw(1), draw(1));
    assert.notDeepEqual(draw(1), draw(2));
    const values = draw(3);
    assert.ok(values.every((x) => x >= 0 && x < 1));
    assert.ok(Math.abs(values.reduce((a, b) => a + b, 0) / values.length - 0.5) < 0.05);
  });
});

describe('shuffle', () => {
  it('shuffle(order, random) yields each of the 3! orders about equally often', () => {
    const random = mulberry32(4);
    const counts = new Map<string, number>();
    for (let k = 0; k < 6000; k++) {
      const order = shuffle(Int32Array.from([0, 1, 2]), random).join('');
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    assert.equal(counts.size, 6);
    for (const [order, count] of counts) assert.ok(Math.abs(count - 1000) < 120, `${order}: ${count}`);
  });

  it('shuffle(order, random) survives a source that returns exactly 1 and leaves short arrays alone', () => {
    assert.deepEqual(Array.from(shuffle(Int32Array.from([0, 1, 2, 3]), () => 1)).sort(), [0, 1, 2, 3]);
    assert.deepEqual(Array.from(shuffle(Int32Array.from([7]), () => 0.5)), [7]);
    assert.equal(shuffle(new Int32Array(0), () => 0.5).length, 0);
  });
});
