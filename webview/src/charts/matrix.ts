import type { Matrix } from '../../../src/protocol/dashboardPanel';

/**
 * The values of row `row` of `matrix`, one per entry of `steps` (aligned by column value, so a
 * matrix whose columns differ from `steps` still lines up); null where the matrix has no value.
 * An unknown row gives all nulls.
 */
export function alignedRow(matrix: Matrix<string, number>, row: string, steps: readonly number[]): (number | null)[] {
  const r = matrix.rows.indexOf(row);
  if (r < 0) return steps.map(() => null);
  const width = matrix.cols.length;
  const colOf = new Map(matrix.cols.map((col, c) => [col, c]));
  return steps.map((step) => {
    const c = colOf.get(step);
    if (c === undefined) return null;
    const value = matrix.values[r * width + c];
    return value === undefined || value === null || !Number.isFinite(value) ? null : value;
  });
}

/** Rows of a matrix in `order` first (e.g. the run's roster), then any other rows it has. */
export function rowOrder(order: readonly string[], ...matrices: readonly Matrix<string, number>[]): string[] {
  const rows = [...order];
  for (const matrix of matrices) for (const row of matrix.rows) if (!rows.includes(row)) rows.push(row);
  return rows;
}
