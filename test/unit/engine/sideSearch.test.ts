import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import type { IndexProgress } from '../../../src/core/indexProgress';
import { runIndexJob, type IndexJobOptions } from '../../../src/engine/indexJob';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { sqliteDriverKind } from '../../../src/store/database';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { mixedSearchFolder, searchableEpisodes } from '../ingest/searchFixtures';
import { searchTerms } from '../store/searchTerms';

// node:sqlite (VS Code's Node 22/24 runtimes) cannot write FTS5 shadow tables, so a cold pass keeps
// the in-transaction path there (indexJob.ts coldSideSearch); the side copy is better-sqlite3's.
const withoutSideSearch =
  sqliteDriverKind() === 'node:sqlite'
    ? 'node:sqlite cannot copy a side index in (cold passes index search in the batch)'
    : false;

// A cold pass with a parse worker builds its full-text index in a third thread, into a side file
// copied into the index at the end (engine/indexWorkerSearch.ts, store/sideSearchIndex.ts). The
// workers are the bundled scripts (built by `npm test` before the tests).
const scripts = { parseWorkerScript: resolve('dist/parseWorker.js'), sideSearchScript: resolve('dist/indexWorker.js') };

before(() => {
  assert.ok(existsSync(scripts.sideSearchScript), 'dist/indexWorker.js missing: run `node esbuild.mjs` first');
});

/** The full-text index as the in-transaction path writes it, for comparison. */
async function reference(root: string): Promise<string[]> {
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, { batchSize: 7 });
  return searchTerms(store);
}

async function indexWithSideSearch(
  root: string,
  dbPath: string,
  extra: Partial<IndexJobOptions> = {},
  hooks: Parameters<typeof runIndexJob>[1] = {},
): Promise<Awaited<ReturnType<typeof runIndexJob>>['tally']> {
  return (await runIndexJob({ root, dbPath, batchSize: 7, ...scripts, ...extra }, hooks)).tally;
}

function withStore<T>(dbPath: string, read: (store: IndexStore) => T): T {
  const store = IndexStore.open(dbPath);
  try {
    return read(store);
  } finally {
    store.close();
  }
}

function episodeCount(store: IndexStore): number {
  return store.db.prepare<{ n: number }>('SELECT count(*) AS n FROM episode').get()?.n ?? -1;
}

/** Throws unless FTS5 finds its own structures consistent. */
function checkIntegrity(store: IndexStore): void {
  store.db.exec("INSERT INTO episode_fts (episode_fts, rank) VALUES ('integrity-check', 0)");
}

/** Searchable episodes are exactly those with rows in the full-text index (for episodes with messages). */
function searchableMatchesRows(store: IndexStore): void {
  const withRows = new Set(searchTerms(store).map((row) => Number(row.split(' ')[1])));
  const marked = store.db
    .prepare<{ episode_id: number }>(
      'SELECT episode_id FROM episode WHERE n_messages > 0 AND episode_id NOT IN (SELECT episode_id FROM episode_unsearched) ORDER BY episode_id',
    )
    .all()
    .map((r) => r.episode_id);
  assert.deepEqual(
    [...withRows].sort((a, b) => a - b),
    marked,
  );
}

test(
  'a cold pass builds the full-text index in a side thread, equal term by term to the in-transaction one',
  { skip: withoutSideSearch },
  async () => {
    const root = mixedSearchFolder();
    const dbPath = join(tempFolder(), 'index.sqlite');
    const progress: IndexProgress[] = [];
    const tally = await indexWithSideSearch(root, dbPath, {}, { onProgress: (p) => progress.push(p) });
    assert.ok(tally.episodesAdded > 40, `indexed ${tally.episodesAdded}`);
    assert.equal(tally.searchEpisodes, tally.episodesAdded);
    // The episodes were written unsearchable, and the side index said so while it finished.
    const waiting = progress.find((p) => p.phase === 'search' && p.searchEpisodes === 0 && p.episodesAdded > 0);
    assert.ok(waiting, 'progress reports search still building after the episodes');
    // Then the files imported whole: the JSONL episodes are searchable by then, copied in from the side index.
    const adopted = progress.find(
      (p) => p.phase === 'index' && p.searchEpisodes > 0 && progress.indexOf(p) > progress.indexOf(waiting),
    );
    assert.ok(adopted, 'the side index was copied in before the files imported whole');
    const expected = await reference(root);
    withStore(dbPath, (store) => {
      assert.equal(searchableEpisodes(store), episodeCount(store));
      assert.ok(expected.length > 300, `${expected.length} search rows`);
      assert.deepEqual(searchTerms(store), expected);
      assert.deepEqual(store.search.search('résoudre').length, 1);
      checkIntegrity(store);
    });
    assert.equal(existsSync(`${dbPath}.search-tmp`), false, 'the side file is deleted');
  },
);

test('after a cold pass in a side thread, appends are searchable when written and a rewrite drops the old rows', async () => {
  const root = tempFolder();
  const file = join(root, 'a.jsonl');
  const dbPath = join(tempFolder(), 'index.sqlite');
  const zebra = episode('z', { messages: [{ agent: 'planner', content: 'zebra crossing' }] });
  writeFileSync(file, jsonl(...episodes(0, 20), zebra));
  await indexWithSideSearch(root, dbPath);
  writeFileSync(
    file,
    jsonl(...episodes(0, 20), zebra, episode('g', { messages: [{ agent: 'planner', content: 'giraffe neck' }] })),
  );
  const appended = await indexWithSideSearch(root, dbPath);
  assert.deepEqual([appended.filesAppended, appended.searchEpisodes], [1, 1]);
  withStore(dbPath, (store) => {
    assert.deepEqual(
      [store.search.search('giraffe').length, store.search.search('zebra').length, searchableEpisodes(store)],
      [1, 1, 22],
    );
    checkIntegrity(store);
  });
  writeFileSync(file, jsonl(episode('o', { messages: [{ agent: 'planner', content: 'okapi' }] })));
  await indexWithSideSearch(root, dbPath);
  withStore(dbPath, (store) => {
    assert.deepEqual(
      searchTerms(store).map((row) => row.split(' ')[0]),
      ['okapi'],
    );
    checkIntegrity(store);
  });
});

test('a cold pass cancelled midway leaves a consistent index, and the next pass completes it', async () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(...episodes(0, 3000)));
  writeFileSync(join(root, 'b.jsonl'), jsonl(...episodes(3000, 6000)));
  const dbPath = join(tempFolder(), 'index.sqlite');
  let written = false; // the first batch written is reported at once (later ones every 100 ms)
  const first = await indexWithSideSearch(
    root,
    dbPath,
    { batchSize: 50 },
    { onProgress: (p) => (written ||= p.episodesAdded > 0), isCancelled: () => written },
  );
  assert.equal(first.cancelled, true);
  withStore(dbPath, (store) => {
    const count = episodeCount(store);
    assert.ok(count > 0 && count < 6000, `cancelled pass indexed ${count}`);
    assert.ok(searchableEpisodes(store) > 0, 'what the side index had indexed was copied in');
    searchableMatchesRows(store);
    checkIntegrity(store);
  });
  await indexWithSideSearch(root, dbPath, { batchSize: 50 });
  const expected = await reference(root);
  withStore(dbPath, (store) => {
    assert.deepEqual([episodeCount(store), searchableEpisodes(store)], [6000, 6000]);
    assert.deepEqual(searchTerms(store), expected);
    checkIntegrity(store);
  });
});

test(
  'episodes an interrupted pass left unsearchable are searchable after the next cold pass',
  { skip: withoutSideSearch },
  async () => {
    const root = tempFolder();
    const file = join(root, 'a.jsonl');
    const dbPath = join(tempFolder(), 'index.sqlite');
    writeFileSync(file, jsonl(...episodes(0, 40)));
    // As after a crash between writing the episodes and copying their side index in: none searchable,
    // and a stale side file on disk.
    await indexWithSideSearch(root, dbPath, { search: false });
    writeFileSync(`${dbPath}.search-tmp`, 'not a database');
    writeFileSync(file, jsonl(...episodes(0, 40), ...episodes(40, 60)));
    const next = await indexWithSideSearch(root, dbPath);
    assert.equal(next.searchEpisodes, 60);
    const expected = await reference(root);
    withStore(dbPath, (store) => {
      assert.equal(searchableEpisodes(store), 60);
      assert.deepEqual(searchTerms(store), expected);
      checkIntegrity(store);
    });
    assert.equal(existsSync(`${dbPath}.search-tmp`), false);
  },
);

test('a side index whose thread cannot start leaves its episodes to the search stage', async () => {
  const root = mixedSearchFolder();
  const dbPath = join(tempFolder(), 'index.sqlite');
  const tally = await indexWithSideSearch(root, dbPath, { sideSearchScript: join(tempFolder(), 'missing.js') });
  assert.equal(tally.searchEpisodes, tally.episodesAdded);
  const expected = await reference(root);
  withStore(dbPath, (store) => {
    assert.equal(searchableEpisodes(store), episodeCount(store));
    assert.deepEqual(searchTerms(store), expected);
  });
});
