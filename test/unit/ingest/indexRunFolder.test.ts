import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { IndexSink } from '../../../src/core/indexing';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';

function ids(store: IndexStore): string[] {
  return store.db
    .prepare<{ external_id: string }>('SELECT external_id FROM episode ORDER BY episode_id')
    .all()
    .map((r) => r.external_id);
}

function errors(store: IndexStore): string[] {
  const rows = store.db.prepare<{ uri: string; line: number; reason: string }>(
    'SELECT s.uri, p.line, p.reason FROM parse_error p JOIN source s USING (source_id) ORDER BY s.uri, p.line',
  );
  return rows.all().map((r) => `${r.uri}:${r.line}: ${r.reason}`);
}

function setup(): { root: string; file: string; store: IndexStore } {
  const root = tempFolder();
  return { root, file: join(root, 'rollouts.jsonl'), store: IndexStore.open(':memory:') };
}

test('indexRunFolder() imports exactly the appended episodes, holding back a partial last line', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(...episodes(0, 10)));
  assert.equal((await indexRunFolder(root, store)).episodesAdded, 10);
  const partial = JSON.stringify(episode('e15'));
  appendFileSync(file, jsonl(...episodes(10, 15)) + partial.slice(0, 40));
  const second = await indexRunFolder(root, store);
  assert.equal(second.episodesAdded, 5);
  assert.equal(second.filesAppended, 1);
  appendFileSync(file, `${partial.slice(40)}\n`);
  assert.equal((await indexRunFolder(root, store)).episodesAdded, 1);
  assert.deepEqual(
    ids(store),
    [...episodes(0, 16)].map((e) => e.id),
  );
  assert.deepEqual(errors(store), []);
});

test('indexRunFolder() re-run with no change reads nothing', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(...episodes(0, 3)));
  await indexRunFolder(root, store);
  const again = await indexRunFolder(root, store);
  assert.equal(again.bytesRead, 0);
  assert.equal(again.filesUnchanged, 1);
  assert.equal(ids(store).length, 3);
});

test('indexRunFolder() re-indexes a truncated file and a rewritten file', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(...episodes(0, 6)));
  await indexRunFolder(root, store);
  truncateSync(file, Buffer.byteLength(jsonl(...episodes(0, 2))));
  assert.equal((await indexRunFolder(root, store)).filesReindexed, 1);
  assert.deepEqual(ids(store), ['e0', 'e1']);
  writeFileSync(file, jsonl(episode('r1'), episode('r2'), episode('r3')));
  await indexRunFolder(root, store);
  assert.deepEqual(ids(store), ['r1', 'r2', 'r3']);
});

test('indexRunFolder() records bad lines with file, line and reason and keeps every valid line', async () => {
  const { root, file, store } = setup();
  const bad = [
    '{"id": "broken", "messages": [',
    JSON.stringify({ id: 'x', messages: [{ agent: 'a' }] }),
    JSON.stringify({ messages: [] }),
    JSON.stringify({ id: 'v', version: '2.0', messages: [] }),
  ];
  writeFileSync(
    file,
    [
      jsonl(episode('ok1')),
      bad[0],
      '\n',
      jsonl(episode('ok2')),
      bad[1],
      '\n',
      bad[2],
      '\n',
      '   \n',
      bad[3],
      '\n',
      jsonl(episode('ok3')),
    ].join(''),
  );
  const tally = await indexRunFolder(root, store);
  assert.deepEqual(ids(store), ['ok1', 'ok2', 'ok3']);
  assert.equal(tally.issues, 4);
  const found = errors(store);
  assert.match(found[0] ?? '', /^rollouts\.jsonl:2: invalid JSON: /);
  assert.equal(found[1], 'rollouts.jsonl:4: invalid episode: messages[0].content: is required');
  assert.equal(found[2], 'rollouts.jsonl:5: invalid episode: id: is required');
  assert.match(found[3] ?? '', /^rollouts\.jsonl:7: invalid episode: version: unsupported format version 2\.0/);
});

test('indexRunFolder() reports a duplicate episode id with the first location and keeps the first', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(episode('a'), episode('b'), episode('a', { reward: 0 })));
  const tally = await indexRunFolder(root, store);
  assert.equal(tally.episodesAdded, 2);
  assert.deepEqual(errors(store), [
    'rollouts.jsonl:3: duplicate episode id "a" (first seen at rollouts.jsonl:1); line skipped',
  ]);
  assert.equal(
    store.db.prepare<{ outcome: number }>("SELECT outcome FROM episode WHERE external_id = 'a'").get()?.outcome,
    1,
  );
});

test('indexRunFolder() indexes unicode content, a 1 MB+ message and an empty file', async () => {
  const { root, file, store } = setup();
  const big = 'token '.repeat(250_000);
  const messages = [
    { agent: 'planner', content: 'Plan: résoudre 漢字 😀 step by step' },
    { agent: 'solver', content: big },
  ];
  writeFileSync(file, jsonl(episode('u', { messages })));
  writeFileSync(join(root, 'empty.jsonl'), '');
  const tally = await indexRunFolder(root, store);
  assert.equal(tally.episodesAdded, 1);
  assert.equal(tally.filesDone, 2);
  const chars = store.db
    .prepare<{ n_chars: number }>('SELECT n_chars FROM message ORDER BY seq')
    .all()
    .map((r) => r.n_chars);
  assert.deepEqual(store.search.search('résoudre'), [1]);
  assert.deepEqual(chars, [messages[0]?.content.length, big.length]);
  assert.equal(store.search.search('漢字').length, 1);
});

test('indexRunFolder() forgets the episodes of a deleted file', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(...episodes(0, 2)));
  writeFileSync(join(root, 'other.jsonl'), jsonl(episode('o1')));
  await indexRunFolder(root, store);
  rmSync(file);
  assert.equal((await indexRunFolder(root, store)).removedFiles, 1);
  assert.deepEqual(ids(store), ['o1']);
});

test('indexRunFolder() resumes without loss or duplicates after a crash between batches', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(...episodes(0, 25)));
  let batches = 0;
  const crashing: IndexSink = Object.create(store, {
    writeBatch: {
      value: (batch: Parameters<IndexSink['writeBatch']>[0]) => {
        if (++batches === 3) throw new Error('simulated crash');
        return store.writeBatch(batch);
      },
    },
  });
  await assert.rejects(() => indexRunFolder(root, crashing, { batchSize: 10 }), /simulated crash/);
  assert.equal(ids(store).length, 20);
  await indexRunFolder(root, store, { batchSize: 10 });
  assert.deepEqual(
    ids(store),
    episodes(0, 25).map((e) => e.id),
  );
});

test('indexRunFolder() stops at a consistent point when cancelled and finishes on the next pass', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(...episodes(0, 30)));
  let lines = 0;
  const first = await indexRunFolder(root, store, { batchSize: 4, isCancelled: () => ++lines > 12 });
  assert.equal(first.cancelled, true);
  assert.ok(ids(store).length < 30);
  await indexRunFolder(root, store);
  assert.deepEqual(
    ids(store),
    episodes(0, 30).map((e) => e.id),
  );
});

test('indexRunFolder() rejects a run.json of an unknown major version and skips that run', async () => {
  const { root, store } = setup();
  mkdirSync(join(root, 'future'));
  writeFileSync(join(root, 'future', 'run.json'), JSON.stringify({ format: 'credit-lens', version: '3.0' }));
  writeFileSync(join(root, 'future', 'a.jsonl'), jsonl(episode('f1')));
  writeFileSync(join(root, 'b.jsonl'), jsonl(episode('b1')));
  const tally = await indexRunFolder(root, store);
  assert.deepEqual(ids(store), ['b1']);
  assert.equal(tally.filesSkipped, 1);
  assert.match(
    tally.fatal[0] ?? '',
    /^future\/run\.json:0: invalid run manifest: version: unsupported format version 3\.0/,
  );
  assert.match(errors(store)[0] ?? '', /^future\/run\.json:0: /);
});

test('indexRunFolder() treats a sub-folder with run.json as its own run with its default roster', async () => {
  const { root, store } = setup();
  mkdirSync(join(root, 'team'));
  const roster = ['planner', 'solver', 'critic'];
  writeFileSync(
    join(root, 'team', 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'Team A', mechanism: 'pipeline', agents: roster }),
  );
  const noRoster = { ...episode('t1'), agents: undefined };
  writeFileSync(join(root, 'team', 'a.jsonl'), `${JSON.stringify(noRoster)}\n`);
  await indexRunFolder(root, store);
  const run = store.db.prepare<{ name: string; mechanism: string }>('SELECT name, mechanism FROM run').get();
  assert.deepEqual(run, { name: 'Team A', mechanism: 'pipeline' });
  const rosterRows = store.db
    .prepare<{ name: string; declared: number; n_messages: number }>(
      'SELECT a.name, ea.declared, ea.n_messages FROM episode_agent ea JOIN agent a USING (agent_id) ORDER BY a.agent_id',
    )
    .all();
  assert.deepEqual(rosterRows, [
    { name: 'planner', declared: 1, n_messages: 1 },
    { name: 'solver', declared: 1, n_messages: 1 },
    { name: 'critic', declared: 1, n_messages: 0 },
  ]);
});

test('indexRunFolder({runs}) reads only the runs it accepts and forgets nothing of the others', async () => {
  const { root, store } = setup();
  for (const team of ['a', 'b']) {
    mkdirSync(join(root, team));
    writeFileSync(join(root, team, 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', name: team }));
  }
  writeFileSync(join(root, 'a', 'x.jsonl'), jsonl(...episodes(0, 3)));
  writeFileSync(join(root, 'b', 'y.jsonl'), jsonl(...episodes(10, 12)));
  await indexRunFolder(root, store, { runs: (run) => run.name === 'a' });
  assert.deepEqual(ids(store), ['e0', 'e1', 'e2']);
  appendFileSync(join(root, 'a', 'x.jsonl'), jsonl(...episodes(3, 4)));
  await indexRunFolder(root, store);
  appendFileSync(join(root, 'b', 'y.jsonl'), jsonl(...episodes(12, 13)));
  const onlyA = await indexRunFolder(root, store, { runs: (run) => run.name === 'a' });
  assert.deepEqual(
    [onlyA.filesTotal, onlyA.removedFiles, onlyA.linesRead],
    [1, 0, 0],
    "b's file neither read nor forgotten",
  );
  assert.equal(ids(store).length, 6);
});

test('indexRunFolder() keeps search in step with rewrites', async () => {
  const { root, file, store } = setup();
  writeFileSync(file, jsonl(episode('s1', { messages: [{ agent: 'a', content: 'zebra crossing' }] })));
  await indexRunFolder(root, store);
  assert.equal(store.search.search('zebra').length, 1);
  writeFileSync(file, jsonl(episode('s2', { messages: [{ agent: 'a', content: 'giraffe neck and more' }] })));
  await indexRunFolder(root, store);
  assert.equal(store.search.search('zebra').length, 0);
  assert.equal(store.search.search('giraffe').length, 1);
});
