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
