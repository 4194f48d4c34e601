import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignedRow, rowOrder } from '../../../webview/src/charts/matrix';

const m = { rows: ['a', 'b'], cols: [10, 20, 30], values: [1, 2, 3, 4, null, Number.NaN] };

test('alignedRow(matrix, row, steps) lines the values up by column value', () => {
  assert.deepEqual(alignedRow(m, 'a', [10, 20, 30]), [1, 2, 3]);
  assert.deepEqual(alignedRow(m, 'a', [30, 15, 10]), [3, null, 1], 'missing columns are null, order follows steps');
});

test('alignedRow turns null and NaN into null and an unknown row into nulls', () => {
  assert.deepEqual(alignedRow(m, 'b', [10, 20, 30]), [4, null, null]);
  assert.deepEqual(alignedRow(m, 'zz', [10, 20]), [null, null]);
});

test('rowOrder puts the roster first, then rows only the matrices have', () => {
  assert.deepEqual(rowOrder(['b', 'x'], m, { rows: ['c', 'a'], cols: [], values: [] }), ['b', 'x', 'a', 'c']);
});
