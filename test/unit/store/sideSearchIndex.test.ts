import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { packTexts } from '../../builders/packedTexts';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { sqliteDriverKind } from '../../../src/store/database';
import { IndexStore } from '../../../src/store/indexStore';
import { adoptSideSearchIndex, SideSearchIndex } from '../../../src/store/sideSearchIndex';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { searchTerms } from './searchTerms';

// node:sqlite (VS Code's Node 22/24 runtimes) cannot write FTS5 shadow tables, so a cold pass keeps
// the in-transaction path there (indexJob.ts coldSideSearch); the side copy is better-sqlite3's.
const withoutSideSearch =
  sqliteDriverKind() === 'node:sqlite'
    ? 'node:sqlite cannot copy a side index in (cold passes index search in the batch)'
    : false;

/** An index file of two episodes, with or without their search rows. */
async function indexFile(search: boolean): Promise<string> {
  const root = tempFolder();
  const messages = (content: string) => [{ agent: 'planner', content }];
  writeFileSync(
    join(root, 'a.jsonl'),
    jsonl(episode('a', { messages: messages('zebra') }), episode('b', { messages: messages('okapi') })),
  );
  const path = join(tempFolder(), 'index.sqlite');
  const store = IndexStore.open(path);
  await indexRunFolder(root, store, { search });
  store.close();
  return path;
}

function sideIndexOf(path: string, texts: string[]): string {
  const sidePath = `${path}.side`;
  const side = SideSearchIndex.create(sidePath);
  side.add(
    [
      [1, 0],
      [2, 1],
    ],
    packTexts(texts),
  );
  side.finish();
  return sidePath;
}

test(
  'a side index is copied into an empty full-text index, its episodes searchable, and the index stays writable',
  { skip: withoutSideSearch },
  async () => {
    const path = await indexFile(false);
    const sidePath = sideIndexOf(path, ['zebra', 'okapi']);
    const store = IndexStore.open(path); // open before the copy: its FTS5 structure must not go stale
    assert.equal(store.search.isEmpty(), true);
    assert.equal(adoptSideSearchIndex(path, sidePath), 2);
    assert.equal(existsSync(sidePath), false);
    assert.deepEqual(store.search.search('okapi'), [2]);
    store.search.write([], [{ episodeId: 3, content: 'okapi giraffe' }]);
    assert.deepEqual(store.search.search('okapi'), [2, 3]);
    store.db.exec("INSERT INTO episode_fts (episode_fts, rank) VALUES ('integrity-check', 0)");
    store.close();
  },
);

test('a side index is not copied into a full-text index that already holds rows', async () => {
  const path = await indexFile(true);
  const before = IndexStore.open(path);
  const terms = searchTerms(before);
  before.close();
  assert.equal(adoptSideSearchIndex(path, sideIndexOf(path, ['giraffe', 'lion'])), 0);
  const after = IndexStore.open(path);
  assert.deepEqual(searchTerms(after), terms);
  assert.equal(after.search.search('giraffe').length, 0);
  after.close();
});
