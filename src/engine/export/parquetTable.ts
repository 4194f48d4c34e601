import { fileWriter, ParquetWriter } from 'hyparquet-writer';

/** The Parquet types the export writes (all columns are OPTIONAL: null is a value). */
export type ParquetKind = 'string' | 'json' | 'int32' | 'int64' | 'double' | 'boolean';

/** A cell as read from the index: SQLite gives numbers, strings, null (and bigints past 2^53). */
export type Cell = string | number | bigint | boolean | null;

/** One column of a table: its name, type and how to read it from a row. */
export interface ParquetColumn<Row> {
  readonly name: string;
  readonly kind: ParquetKind;
  readonly value: (row: Row) => Cell;
}

/** Rows per row group: bounded memory (one group of columns at a time) and large enough for scans. */
export const defaultRowGroupSize = 100_000;

const physical: Record<
  ParquetKind,
  { type: 'BYTE_ARRAY' | 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN'; converted?: 'UTF8' | 'JSON' }
> = {
  string: { type: 'BYTE_ARRAY', converted: 'UTF8' },
  json: { type: 'BYTE_ARRAY', converted: 'JSON' },
  int32: { type: 'INT32' },
  int64: { type: 'INT64' },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
};

/**
 * Writes `rows` to a Parquet file (snappy, one row group per `rowGroupSize` rows), streaming: only
 * one row group's columns are in memory, and the file is flushed about every megabyte. A cell that
 * does not fit its column's type (NaN, ±Infinity, a string where a number belongs) is written as
 * null, so a reader's aggregate skips it as Credit Lens's summaries skip non-finite values.
 * Returns the number of rows written.
 */
export function writeParquetTable<Row>(
  file: string,
  columns: readonly ParquetColumn<Row>[],
  rows: Iterable<Row>,
  rowGroupSize = defaultRowGroupSize,
): number {
  const writer = new ParquetWriter({
    writer: fileWriter(file),
    schema: [
      { name: 'root', num_children: columns.length },
      ...columns.map((c) => ({
        name: c.name,
        type: physical[c.kind].type,
        repetition_type: 'OPTIONAL' as const,
        ...(physical[c.kind].converted ? { converted_type: physical[c.kind].converted } : {}),
      })),
    ],
    createdBy: 'credit-lens',
  });
  let group: Cell[][] = columns.map(() => []);
  let pending = 0;
  let total = 0;
  const flush = (): void => {
    if (pending === 0) return;
    void writer.write({
      columnData: columns.map((c, i) => ({ name: c.name, data: group[i] ?? [] })),
      rowGroupSize: pending,
    });
    total += pending;
    group = columns.map(() => []);
    pending = 0;
  };
  for (const row of rows) {
    for (const [i, column] of columns.entries()) group[i]?.push(cellOf(column.kind, column.value(row)));
    if (++pending >= rowGroupSize) flush();
  }
  flush();
  void writer.finish();
  return total;
}

/** The cell as its column's type takes it, or null. */
function cellOf(kind: ParquetKind, cell: Cell): Cell {
  if (cell === null) return null;
  switch (kind) {
    case 'string':
    case 'json':
      return typeof cell === 'string' ? cell : String(cell);
    case 'boolean':
      return typeof cell === 'boolean' ? cell : typeof cell === 'number' ? cell !== 0 : null;
    case 'double':
      return typeof cell === 'number' && Number.isFinite(cell) ? cell : null;
    case 'int32':
      return typeof cell === 'number' && Number.isInteger(cell) ? cell : null;
    case 'int64': // the writer takes INT64 values as bigints only
      return typeof cell === 'bigint' ? cell : typeof cell === 'number' && Number.isInteger(cell) ? BigInt(cell) : null;
  }
}
