import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../../src/store/database';
import { tempFolder } from '../../builders/episodeBuilder';

// Large sorts (the credit pass's rebuild of the dashboard aggregates) spill to temporary files
// instead of growing the process: every connection, writer or reader, keeps temp_store = FILE (1).

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
