import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { jsonlWork } from '../../../src/ingest/importers/containers/jsonlRecords';
import { detectFormat } from '../../../src/ingest/importers/detect';
import { formatMappers } from '../../../src/ingest/importers/mappers';
import { importerList } from '../../../src/ingest/importers/registry';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, tempFolder } from '../../builders/episodeBuilder';

function errors(store: IndexStore): string[] {
  const rows = store.db.prepare<{ uri: string; line: number; reason: string }>(
    'SELECT s.uri, p.line, p.reason FROM parse_error p JOIN source s USING (source_id) ORDER BY s.uri, p.line',
  );
  return rows.all().map((r) => `${r.uri}:${r.line}: ${r.reason}`);
}

function episodeCount(store: IndexStore): number {
  return store.db.prepare<{ n: number }>('SELECT count(*) AS n FROM episode').get()?.n ?? 0;
}

test('a JSONL file whose first 3 of 103 lines have a misspelt field keeps its 100 episodes and reports the 3 lines', async () => {
  const root = tempFolder();
  const lines: string[] = [];
  for (let i = 0; i < 103; i++) {
    const text = JSON.stringify(episode(`e${i}`));
    lines.push(i < 3 ? text.replace('"messages"', '"mesages"') : text);
  }
  writeFileSync(join(root, 'rollouts.jsonl'), `${lines.join('\n')}\n`);
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, { search: false });
  assert.equal(episodeCount(store), 100);
  const found = errors(store);
  assert.equal(found.length, 3);
  assert.deepEqual(
    found.map((e) => e.split(': ')[0]),
    ['rollouts.jsonl:1', 'rollouts.jsonl:2', 'rollouts.jsonl:3'],
  );
});

test('detection of a file with a very long line reads each byte a bounded number of times', async () => {
  const root = tempFolder();
  const path = join(root, 'long.jsonl');
  const long = JSON.stringify(episode('long', { metadata: { blob: 'x'.repeat(12 << 20) } }));
  writeFileSync(path, `${long}\n${JSON.stringify(episode('short'))}\n`);
  const size = Buffer.byteLength(long) + 1 + Buffer.byteLength(JSON.stringify(episode('short'))) + 1;
  const before = { ...jsonlWork };
  const detected = await detectFormat(path, 'long.jsonl', importerList(formatMappers));
  assert.equal(detected.ok && detected.value.mapper.format, 'credit_lens_jsonl');
  // Linear work: every byte read at most once per sampling pass, searched once, copied once.
  // The old reader copied and searched the pending line again for each 64 KiB chunk (~100× here).
  const read = jsonlWork.bytesRead - before.bytesRead;
  assert.ok(read <= 2 * size + (1 << 17), `read ${read} of ${size}`);
  assert.ok(jsonlWork.bytesSearched - before.bytesSearched <= read, 'searched once');
  assert.ok(jsonlWork.bytesCopied - before.bytesCopied <= read, 'copied once');
});

test('a file of long lines indexes every line and copies each byte once', async () => {
  const root = tempFolder();
  const blob = 'y'.repeat(3 << 20);
  const lines = [0, 1, 2].map((i) => JSON.stringify(episode(`big${i}`, { metadata: { blob } })));
  writeFileSync(join(root, 'big.jsonl'), `${lines.join('\n')}\n`);
  const store = IndexStore.open(':memory:');
  const before = { ...jsonlWork };
  await indexRunFolder(root, store, { search: false });
  assert.equal(episodeCount(store), 3);
  assert.deepEqual(errors(store), []);
  const size = lines.reduce((sum, l) => sum + l.length + 1, 0);
  assert.ok(jsonlWork.bytesCopied - before.bytesCopied <= size, 'detection copies each byte at most once');
});
