import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRandom, deriveSeed } from '../../../src/demo/random';

const draws = (seed: number, n: number): number[] => {
  const rng = createRandom(seed);
  return Array.from({ length: n }, () => rng.next());
};

describe('createRandom', () => {
  it('createRandom(seed).next() repeats the same sequence for the same seed and differs for another', () => {
    assert.deepEqual(draws(42, 20), draws(42, 20));
    assert.notDeepEqual(draws(42, 20), draws(43, 20));
  });

  it('createRandom(seed).next() stays in [0, 1) with a mean near 1/2', () => {
    const values = draws(1, 10_000);
    assert.ok(values.every((v) => v >= 0 && v < 1));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    assert.ok(Math.abs(mean - 0.5) < 0.02, `mean ${mean}`);
  });

  it('createRandom(seed).int(min, max) covers both ends and nothing outside', () => {
    const rng = createRandom(3);
    const seen = new Set(Array.from({ length: 500 }, () => rng.int(2, 5)));
    assert.deepEqual([...seen].sort(), [2, 3, 4, 5]);
  });

  it('createRandom(seed).normal() has mean ≈ 0 and variance ≈ 1', () => {
    const rng = createRandom(9);
    const values = Array.from({ length: 20_000 }, () => rng.normal());
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
    assert.ok(Math.abs(mean) < 0.03 && Math.abs(variance - 1) < 0.05, `mean ${mean}, variance ${variance}`);
  });
});

describe('deriveSeed', () => {
  it('deriveSeed(seed, ...path) is stable and separates nearby paths', () => {
    assert.equal(deriveSeed(7, 1, 2, 3), deriveSeed(7, 1, 2, 3));
    const seeds = new Set<number>();
    for (let a = 0; a < 20; a++) for (let b = 0; b < 20; b++) seeds.add(deriveSeed(7, 2, a, b));
    assert.equal(seeds.size, 400);
    assert.notEqual(deriveSeed(7, 1, 2), deriveSeed(8, 1, 2));
  });
});
