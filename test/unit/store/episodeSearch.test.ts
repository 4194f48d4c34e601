import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { influence0017 } from '../../../src/store/migrations/0017_influence';
import { openDatabase } from '../../../src/store/database';
import { EpisodePages } from '../../../src/store/episodePages';
import { IndexStore } from '../../../src/store/indexStore';
import { IndexSchemaError, migrate } from '../../../src/store/migrate';
import { SearchRepository } from '../../../src/store/searchRepository';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { searchableEpisodes } from '../ingest/searchFixtures';
import { revertUnsearchedTable } from './demoIndex';
import { searchTerms } from './searchTerms';

// The full-text index has one document per episode (migration 0019): a query matches an episode
// whose messages together hold its terms; no term is made of the end of one message and the start
// of the next.

function indexedFolder(): { root: string; store: IndexStore; id: (external: string) => number } {
  const root = tempFolder();
  writeFileSync(
    join(root, 'a.jsonl'),
    jsonl(
      episode('split', {
        messages: [
          { agent: 'planner', role: 'assistant', content: 'the zebra' },
          { agent: 'solver', role: 'assistant', content: 'okapi grazes' },
        ],
      }),
      episode('one', { messages: [{ agent: 'planner', role: 'assistant', content: 'zebra only' }] }),
    ),
  );
  const store = IndexStore.open(':memory:');
  const id = (external: string): number =>
    store.db.prepare<{ id: number }>('SELECT episode_id AS id FROM episode WHERE external_id = ?').get(external)?.id ??
    -1;
  return { root, store, id };
}

test('a query matches the episodes whose messages together hold its terms, never a term across two messages', async () => {
  const { root, store, id } = indexedFolder();
  await indexRunFolder(root, store);
  assert.deepEqual(store.search.search('zebra AND okapi'), [id('split')]);
  assert.deepEqual(store.search.search('zebra'), [id('split'), id('one')]);
  assert.deepEqual(store.search.search('zebra NOT okapi'), [id('one')]);
  assert.deepEqual(store.search.search('zebraokapi'), []);
  assert.deepEqual(
    searchTerms(store).filter((t) => t.startsWith('zebra ')),
    [`zebra ${String(id('one'))}`, `zebra ${String(id('split'))}`].sort(),
    'one posting per episode and term',
  );
  store.close();
});

test('migration 0019 drops the per-message index and the next pass searches every episode again', async () => {
  const { root, store, id } = indexedFolder();
  await indexRunFolder(root, store);
  // As at schema 18: a document per message, every episode searchable (no sign-disagreement table, 0020,
  // and the influence edges a row each, 0021).
  revertUnsearchedTable(store.db);
  store.db.exec(`DROP TABLE episode_fts; DROP TABLE signal_step_agent; DROP TRIGGER signal_step_agent_delete;
    DROP TABLE episode_influence; ${influence0017}
    CREATE VIRTUAL TABLE message_fts USING fts5(content, content='', contentless_delete=1, detail=none);
    INSERT INTO message_fts (rowid, content) VALUES (16777216, 'the zebra');`);
  store.db.pragma('user_version = 18');
  migrate(store.db);
  const searchable = (): number => searchableEpisodes(store);
  assert.equal(searchable(), 0);
  assert.equal(store.search.isEmpty(), true);
  assert.equal(store.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'message_fts'").get(), undefined);
  await indexRunFolder(root, store);
  assert.equal(searchable(), 2);
  assert.deepEqual(store.search.search('okapi'), [id('split')]);
  store.db.exec("INSERT INTO episode_fts (episode_fts, rank) VALUES ('integrity-check', 0)");
  store.close();
});

test('migration 0022 keeps the unsearched episodes as a table of ids; the next pass searches exactly them', async () => {
  const { root, store, id } = indexedFolder();
  await indexRunFolder(root, store, { search: false });
  // As at schema 21: the state in the episode row; 'split' searchable (with its document), 'one' not.
  revertUnsearchedTable(store.db);
  store.db.prepare('UPDATE episode SET search_indexed = 1 WHERE episode_id = ?').run(id('split'));
  store.db.prepare("INSERT INTO episode_fts (rowid, content) VALUES (?, 'the zebra\nokapi grazes')").run(id('split'));
  store.db.pragma('user_version = 21');
  migrate(store.db);
  const column = store.db.prepare("SELECT 1 FROM pragma_table_info('episode') WHERE name = 'search_indexed'").get();
  assert.equal(column, undefined, 'the column is dropped');
  assert.deepEqual(
    store.search.pending(10).map((p) => p.episodeId),
    [id('one')],
  );
  assert.equal(store.summary.summary().searchableEpisodes, 1);
  await indexRunFolder(root, store);
  assert.equal(searchableEpisodes(store), 2);
  assert.deepEqual(store.search.search('zebra'), [id('split'), id('one')]);
  store.db.exec("INSERT INTO episode_fts (episode_fts, rank) VALUES ('integrity-check', 0)");
  store.close();
});

test("an unsearched episode's id goes with its episode", async () => {
  const { root, store } = indexedFolder();
  await indexRunFolder(root, store, { search: false });
  const unsearched = (): number =>
    store.db.prepare<{ n: number }>('SELECT count(*) AS n FROM episode_unsearched').get()?.n ?? -1;
  assert.equal(unsearched(), 2);
  store.db.exec('DELETE FROM episode');
  assert.equal(unsearched(), 0);
  store.close();
});

test('a read-only connection refuses an index the indexer has not yet migrated, naming the remedy; it reads it once a pass has', async () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('z', { messages: [{ agent: 'planner', content: 'the zebra' }] })));
  const path = join(root, 'index.sqlite');
  const store = IndexStore.open(path);
  await indexRunFolder(root, store);
  revertUnsearchedTable(store.db);
  store.db.pragma('user_version = 21');
  store.close();
  // As the extension's views open it (read-only, no migration): before 4da6dea's fix the episode
  // pages failed here with "no such table: episode_unsearched"; every view now gets this instead.
  assert.throws(
    () => openDatabase(path, { readonly: true }),
    (error: unknown) =>
      error instanceof IndexSchemaError &&
      error.direction === 'older' &&
      /index schema version 21 is older than this Credit Lens reads \(\d+\); index the folder once/.test(error.message),
  );
  const writer = IndexStore.open(path); // what the indexer's pass does first
  writer.close();
  const db = openDatabase(path, { readonly: true });
  assert.doesNotThrow(() => new EpisodePages(db, () => []));
  assert.equal(new SearchRepository(db).search('zebra').length, 1);
  db.close();
});
