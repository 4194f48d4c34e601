import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../../../src/core/mulberry32';
import { declineStart } from '../../../../src/credit/audit/decoupling';

/** The quadratic implementation declineStart replaced (a slice and a sum per checkpoint): the oracle. */
function quadraticDeclineStart(share: readonly number[]): number {
  const n = share.length;
  const half = Math.max(1, Math.round(0.05 * n));
  const smoothed = share.map((_, k) => {
    const window = share.slice(Math.max(0, k - half), Math.min(n, k + half + 1));
    return window.reduce((sum, v) => sum + v, 0) / window.length;
  });
  const peak = smoothed.reduce((max, v) => Math.max(max, v), -Infinity);
  const tolerance = 1e-12 * Math.max(1, Math.abs(peak));
  let last = 0;
  smoothed.forEach((value, k) => {
    if (value >= peak - tolerance) last = k;
  });
  return last === n - 1 ? 0 : last;
}

type Shape = (uniform: () => number, n: number) => number[];

const shapes: Readonly<Record<string, Shape>> = {
  uniform: (u, n) => Array.from({ length: n }, () => u()),
  // Eighths: many exact ties between window sums, the case tolerance decides.
  quantised: (u, n) => Array.from({ length: n }, () => Math.floor(u() * 8) / 8),
  flat: (u, n) => Array<number>(n).fill(u() < 0.5 ? 0 : 1 / 3),
  peakThenFall: (u, n) => {
    const top = Math.floor(u() * n);
    return Array.from({ length: n }, (_, k) => (k <= top ? 0.5 : 0.5 - (0.4 * (k - top)) / n) + 0.01 * u());
  },
  rising: (u, n) => Array.from({ length: n }, (_, k) => k / n + 0.001 * u()),
  tiny: (u, n) => Array.from({ length: n }, () => 1e-9 * u()),
};

test('declineStart(share) equals the quadratic oracle on 1,200 seeded shares of six shapes (n 1–3,000)', () => {
  const lengths = [1, 2, 3, 4, 5, 7, 10, 19, 20, 21, 40, 99, 100, 101, 508, 3000];
  let checked = 0;
  for (const [name, shape] of Object.entries(shapes))
    for (let seed = 1; seed <= 200; seed++) {
      const uniform = mulberry32(seed);
      const n = lengths[seed % lengths.length] ?? 10;
      const share = shape(uniform, n);
      assert.equal(declineStart(share), quadraticDeclineStart(share), `${name}, seed ${seed}, n ${n}`);
      checked++;
    }
  assert.equal(checked, 1200);
});

test('declineStart(share) is 0 for a share that peaks at the last checkpoint and the peak index otherwise', () => {
  assert.equal(declineStart([0.1, 0.2, 0.3, 0.4, 0.5]), 0);
  assert.equal(declineStart([0.1, 0.9, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1]), 2);
  assert.equal(declineStart([]), 0);
});
