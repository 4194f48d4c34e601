import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { writeParquetTable, type Cell, type ParquetColumn } from '../../../../src/engine/export/parquetTable';
import { tempFolder } from '../../../builders/episodeBuilder';

type Row = readonly [string | null, Cell, Cell, Cell];

const columns: readonly ParquetColumn<Row>[] = [
  { name: 'agent', kind: 'string', value: (r) => r[0] },
  { name: 'value', kind: 'double', value: (r) => r[1] },
  { name: 'step', kind: 'int64', value: (r) => r[2] },
  { name: 'latest', kind: 'boolean', value: (r) => r[3] },
];

async function read(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const c = await (await DuckDBInstance.create(':memory:')).connect();
  return (await c.runAndReadAll(sql.replaceAll('$file', `read_parquet('${file}')`))).getRowObjects();
}

test('rows are written in row groups of the given size; NaN, ±Infinity and mistyped cells become null', async () => {
  const file = join(tempFolder(), 't.parquet');
  const rows: Row[] = [
    ['a', 1.5, 1, 1],
    ['b', Number.NaN, 2, 0],
    [null, Number.POSITIVE_INFINITY, 3.5, true],
    ['c', 'oops', null, null],
    ['d', -2, 2 ** 40, false],
  ];
  assert.equal(writeParquetTable(file, columns, rows, 2), 5);
  const back = await read(file, 'SELECT * FROM $file');
  assert.deepEqual(back, [
    { agent: 'a', value: 1.5, step: 1n, latest: true },
    { agent: 'b', value: null, step: 2n, latest: false },
    { agent: null, value: null, step: null, latest: true },
    { agent: 'c', value: null, step: null, latest: null },
    { agent: 'd', value: -2, step: 2n ** 40n, latest: false },
  ]);
  const groups = await read(file, "SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('" + file + "')");
  assert.equal(groups[0]?.['n'], 3n);
});

test('a table with no rows is a valid file with its columns', async () => {
  const file = join(tempFolder(), 'empty.parquet');
  assert.equal(writeParquetTable(file, columns, []), 0);
  const described = await read(file, 'DESCRIBE SELECT * FROM $file');
  assert.deepEqual(
    described.map((r) => r['column_name']),
    ['agent', 'value', 'step', 'latest'],
  );
  assert.deepEqual(await read(file, 'SELECT count(*) AS n FROM $file'), [{ n: 0n }]);
});
