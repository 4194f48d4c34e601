import assert from 'node:assert/strict';
import { mulberry32 } from '../../../../src/core/mulberry32';

/**
 * Asserts that `actual` equals `expected` within `tolerance` (absolute), element-wise for arrays.
 * NaN matches NaN. The credit-methods.md oracles are rounded to 6 places, hence the default.
 */
export function assertClose(
  actual: number | ArrayLike<number>,
  expected: number | ArrayLike<number>,
  tolerance = 1e-6,
  message = '',
): void {
  const a = typeof actual === 'number' ? [actual] : Array.from(actual);
  const e = typeof expected === 'number' ? [expected] : Array.from(expected);
  assert.equal(a.length, e.length, `${message} length: got [${a.join(', ')}], expected [${e.join(', ')}]`);
  for (const [k, value] of a.entries()) {
    const want = e[k] ?? NaN;
    const ok = Number.isNaN(want) ? Number.isNaN(value) : Math.abs(value - want) <= tolerance;
    assert.ok(ok, `${message} [${k}]: got ${value}, expected ${want} ± ${tolerance} (all: [${a.join(', ')}])`);
  }
}

/** mulberry32: a tiny seeded uniform generator on [0, 1) for reproducible simulations. */
export const seededUniform = mulberry32;
