import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { IndexSink, SearchRow } from '../../../src/core/indexing';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { searchTerms } from '../store/searchTerms';
import { mixedSearchFolder, searchableEpisodes } from './searchFixtures';

// The parser hands each batch's message text to the writer (issue 15), so a cold index no longer
// re-reads the files for search. The full-text index must hold exactly what the old search stage
// (re-read by byte offset, or through the importer) wrote.

function episodesOutsideJsonl(store: IndexStore): number {
  const sql = "SELECT count(*) AS n FROM episode e JOIN source s USING (source_id) WHERE s.uri NOT LIKE '%.jsonl'";
  return store.db.prepare<{ n: number }>(sql).get()?.n ?? -1;
}

test('a cold index writes the same search rows as the separate search stage', async () => {
  const root = mixedSearchFolder();
  const handedOver = IndexStore.open(':memory:');
  const reRead = IndexStore.open(':memory:');
  let reReadInCold = 0;
  const spy: IndexSink = Object.create(handedOver, {
    writeSearch: {
      value: (ids: readonly number[], rows: readonly SearchRow[]) => {
        reReadInCold += ids.length;
        handedOver.writeSearch(ids, rows);
      },
    },
  });
  const cold = await indexRunFolder(root, spy, { batchSize: 7 });
  // Only the episodes of files that are not JSONL go through the search stage.
  assert.equal(reReadInCold, episodesOutsideJsonl(handedOver));
  assert.ok(reReadInCold > 0 && reReadInCold < cold.episodesAdded, `${reReadInCold} re-read`);
  await indexRunFolder(root, reRead, { batchSize: 7, search: false });
  assert.equal(searchableEpisodes(reRead), 0);
  const stage = await indexRunFolder(root, reRead, { batchSize: 7 });
  assert.ok(cold.episodesAdded > 40, `indexed ${cold.episodesAdded}`);
  assert.equal(stage.searchEpisodes, cold.episodesAdded, 'the old stage indexed every episode');
  assert.equal(cold.searchEpisodes, cold.episodesAdded);
  assert.equal(searchableEpisodes(handedOver), cold.episodesAdded);
  const rows = searchTerms(handedOver);
  assert.ok(rows.length > 300, `${rows.length} search rows`);
  assert.deepEqual(rows, searchTerms(reRead));
  assert.deepEqual(handedOver.search.search('résoudre'), reRead.search.search('résoudre'));
  assert.equal(handedOver.search.search('漢字').length, 1);
});

test('appended lines are searchable when written, and a rewrite drops the old rows', async () => {
  const root = tempFolder();
  const file = join(root, 'a.jsonl');
  const store = IndexStore.open(':memory:');
  writeFileSync(file, jsonl(episode('s1', { messages: [{ agent: 'a', content: 'zebra crossing' }] })));
  await indexRunFolder(root, store);
  writeFileSync(
    file,
    jsonl(
      episode('s1', { messages: [{ agent: 'a', content: 'zebra crossing' }] }),
      episode('s2', { messages: [{ agent: 'a', content: 'giraffe neck' }] }),
    ),
  );
  const appended = await indexRunFolder(root, store);
  assert.equal(appended.filesAppended, 1);
  assert.equal(appended.searchEpisodes, 1);
  assert.equal(store.search.search('giraffe').length, 1);
  assert.equal(store.search.search('zebra').length, 1);
  writeFileSync(file, jsonl(episode('s3', { messages: [{ agent: 'a', content: 'okapi' }] })));
  await indexRunFolder(root, store);
  assert.deepEqual(
    searchTerms(store).map((row) => row.split(' ')[0]),
    ['okapi'],
  );
});
