import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../../src/store/database';
import { tempFolder } from '../../builders/episodeBuilder';

// Large sorts (the credit pass's rebuild of the dashboard aggregates) spill to temporary files
// instead of growing the process: every connection, writer or reader, keeps temp_store = FILE (1),
// except a credit write worker's, which asks for its journals in memory (2). Each connection's page
// cache is 32 MiB unless it asks for another size (the indexer's writer: 16; a credit pass's reading
// thread: 8).

const tempStoreOf = (db: ReturnType<typeof openDatabase>): unknown =>
  (db.pragma('temp_store') as { temp_store: number }[])[0]?.temp_store;

test('every index connection keeps temporary b-trees in files, not in memory', () => {
  const file = join(tempFolder('credit-lens-temp-store-'), 'index.sqlite');
  const writer = openDatabase(file);
  const reader = openDatabase(file, { readonly: true });
  try {
    assert.deepEqual([tempStoreOf(writer), tempStoreOf(reader)], [1, 1]);
    // A full sort bigger than the cache still answers (spilled, not refused).
    const row = writer
      .prepare<{ tail: string }>(
        `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 200000)
         SELECT group_concat(i) AS tail FROM (SELECT i FROM k ORDER BY -i LIMIT 3 OFFSET 199997)`,
      )
      .get();
    assert.equal(row?.tail, '3,2,1');
  } finally {
    reader.close();
    writer.close();
  }
});

test('a connection that asks for its journals in memory keeps temporary data in memory, and still writes in savepoints', () => {
  const file = join(tempFolder('credit-lens-temp-store-'), 'index.sqlite');
  const writer = openDatabase(file, { journalsInMemory: true });
  const other = openDatabase(file);
  try {
    assert.deepEqual([tempStoreOf(writer), tempStoreOf(other)], [2, 1]);
    // A savepoint that rolls back inside an open transaction restores its pages from the in-memory
    // journal, and the transaction's earlier writes stay (what a failed write of a span relies on).
    writer.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t (v)');
    writer.exec('BEGIN');
    const series = 'WITH RECURSIVE k(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM k WHERE value < 20000)';
    writer.exec(`INSERT INTO t (v) ${series} SELECT printf('%08d', (value * 7919) % 100003) FROM k`);
    const failing = writer.transaction(() => {
      writer.exec(`INSERT INTO t (v) ${series} SELECT printf('%08d', value) FROM k`);
      throw new Error('the write fails after touching pages all over t_v');
    });
    assert.throws(() => failing(), /fails/);
    writer.exec('COMMIT');
    const count = writer.prepare<{ n: number }>('SELECT count(*) AS n FROM t').get();
    assert.equal(count?.n, 20000);
    assert.equal(writer.prepare<{ integrity_check: string }>('PRAGMA integrity_check').get()?.integrity_check, 'ok');
  } finally {
    other.close();
    writer.close();
  }
});

test('a connection opens with a 32 MiB page cache unless it asks for another size', () => {
  const file = join(tempFolder('credit-lens-cache-size-'), 'index.sqlite');
  const cacheOf = (db: ReturnType<typeof openDatabase>): unknown =>
    (db.pragma('cache_size') as { cache_size: number }[])[0]?.cache_size;
  const usual = openDatabase(file);
  const small = openDatabase(file, { cacheMiB: 8 });
  try {
    // Negative: a size in KiB rather than in pages.
    assert.deepEqual([cacheOf(usual), cacheOf(small)], [-32768, -8192]);
  } finally {
    small.close();
    usual.close();
  }
});
