import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import type { IndexSink } from '../../../src/core/indexing';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { searchTerms } from '../store/searchTerms';

// The parse worker runs the bundled dist/parseWorker.js (built by `npm test` before the tests).
const parseWorkerScript = resolve('dist/parseWorker.js');

function snapshot(store: IndexStore): unknown {
  const q = (sql: string) => store.db.prepare(sql).all();
  return {
    episodes: q(
      'SELECT external_id, line, byte_offset, byte_length, train_step, outcome, n_messages, messages_json FROM episode ORDER BY episode_id',
    ),
    roster: q(
      'SELECT episode_id, agent_id, ordinal, declared, n_messages, n_chars FROM episode_agent ORDER BY episode_id, ordinal',
    ),
    errors: q('SELECT line, reason FROM parse_error ORDER BY line'),
    search: searchTerms(store),
  };
}

before(() => {
  assert.ok(existsSync(parseWorkerScript), 'dist/parseWorker.js missing: run `node esbuild.mjs` first');
});

test('indexRunFolder({parseWorkerScript}) writes exactly what in-thread parsing writes', async () => {
  const root = tempFolder();
  const lines =
    jsonl(...episodes(0, 40)) + '{oops\n' + jsonl(episode('odd', { messages: [{ agent: 'intruder', content: 'é' }] }));
  writeFileSync(join(root, 'a.jsonl'), lines);
  writeFileSync(join(root, 'b.jsonl'), jsonl(...episodes(100, 130, 2)));
  const inThread = IndexStore.open(':memory:');
  const inWorker = IndexStore.open(':memory:');
  await indexRunFolder(root, inThread, { batchSize: 7 });
  const tally = await indexRunFolder(root, inWorker, { batchSize: 7, parseWorkerScript });
  assert.equal(tally.episodesAdded, 71);
  assert.equal(tally.issues, 1);
  assert.deepEqual(snapshot(inWorker), snapshot(inThread));
  assert.equal(tally.searchEpisodes, 71);
  assert.deepEqual(inWorker.search.search('é'), [41], 'the worker hands over the message text');
});

test('indexRunFolder({parseWorkerScript}) stops when cancelled and the next pass completes', async () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(...episodes(0, 3000)));
  const store = IndexStore.open(':memory:');
  let batches = 0;
  const counting: IndexSink = Object.create(store, {
    writeBatch: { value: (batch: Parameters<IndexSink['writeBatch']>[0]) => (batches++, store.writeBatch(batch)) },
  });
  const first = await indexRunFolder(root, counting, {
    batchSize: 50,
    parseWorkerScript,
    isCancelled: () => batches >= 3,
  });
  assert.equal(first.cancelled, true);
  const count = (): number => store.db.prepare<{ n: number }>('SELECT count(*) AS n FROM episode').get()?.n ?? -1;
  assert.ok(count() < 3000, `cancelled pass indexed ${count()}`);
  await indexRunFolder(root, store, { parseWorkerScript });
  assert.equal(count(), 3000);
  assert.equal(store.db.prepare<{ n: number }>('SELECT count(DISTINCT external_id) AS n FROM episode').get()?.n, 3000);
});

test("indexRunFolder({parseWorkerScript}) maps the lines of a mapping file's format in the worker as in this thread", async () => {
  const root = tempFolder();
  const mapping = {
    format: 'team-logs',
    label: 'Team logs',
    container: 'jsonl',
    episode: { id: '$.uid', reward: '$.score' },
    messages: { path: '$.turns[*]', agent: '$.speaker', content: '$.text' },
  };
  writeFileSync(join(root, 'mapping.json'), JSON.stringify(mapping));
  const line = (i: number): string =>
    JSON.stringify({
      uid: `u${i}`,
      score: i % 2,
      turns: [
        { speaker: 'planner', text: `plan ${i}` },
        { speaker: 'solver', text: `${i}` },
      ],
    });
  writeFileSync(
    join(root, 'logs.jsonl'),
    `${Array.from({ length: 30 }, (_, i) => line(i)).join('\n')}\n{"uid": "bad"}\n`,
  );
  const inThread = IndexStore.open(':memory:');
  const inWorker = IndexStore.open(':memory:');
  await indexRunFolder(root, inThread, { batchSize: 7 });
  const tally = await indexRunFolder(root, inWorker, { batchSize: 7, parseWorkerScript });
  assert.deepEqual([tally.episodesAdded, tally.issues], [30, 1]);
  assert.deepEqual(snapshot(inWorker), snapshot(inThread));
  assert.equal(inWorker.summary.summary().sources?.[0]?.format, 'team-logs');
});

test('indexRunFolder({parseWorkers: 3}) writes exactly what one parse worker writes, in file order', async () => {
  const root = tempFolder();
  // Files of very different lengths, so that the pool's workers finish out of order; "dup" is in
  // the first and the last file: the first file's copy must be kept, as with one worker.
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('dup', { reward: 0.25 }), ...episodes(0, 400)));
  writeFileSync(join(root, 'b.jsonl'), jsonl(...episodes(1000, 1003, 2)) + '{oops\n');
  writeFileSync(join(root, 'c.jsonl'), jsonl(...episodes(2000, 2200, 3)));
  writeFileSync(join(root, 'd.jsonl'), jsonl(episode('dup', { reward: 1 })));
  const one = IndexStore.open(':memory:');
  const pool = IndexStore.open(':memory:');
  await indexRunFolder(root, one, { batchSize: 7, parseWorkerScript, search: false });
  const tally = await indexRunFolder(root, pool, { batchSize: 7, parseWorkerScript, parseWorkers: 3, search: false });
  assert.deepEqual([tally.episodesAdded, tally.issues], [604, 2]);
  const dup = pool.db
    .prepare<{ reward: number }>("SELECT outcome AS reward FROM episode WHERE external_id = 'dup'")
    .get();
  assert.equal(dup?.reward, 0.25);
  // Compared small first: a full snapshot's diff of 604 episodes takes the reporter minutes.
  const ids = (s: IndexStore): string[] =>
    s.db
      .prepare<{ id: string }>('SELECT external_id AS id FROM episode ORDER BY episode_id')
      .all()
      .map((r) => r.id);
  assert.deepEqual(ids(pool), ids(one));
  assert.deepEqual(snapshot(pool), snapshot(one));
});
