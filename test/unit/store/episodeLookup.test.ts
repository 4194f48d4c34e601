import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { EpisodeLookup } from '../../../src/store/episodeLookup';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

test('EpisodeLookup.byExternalId(id) finds an episode in every run that has it, by an index', async () => {
  const root = tempFolder();
  mkdirSync(join(root, 'b'));
  writeFileSync(join(root, 'b', 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'run-b' }));
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('x'), episode('shared-id')));
  writeFileSync(join(root, 'b', 'b.jsonl'), jsonl(episode('shared-id')));
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store);
  const lookup = new EpisodeLookup(store.db);
  assert.deepEqual(
    lookup
      .byExternalId('shared-id')
      .map((l) => [l.uri, l.line])
      .sort(),
    [
      ['a.jsonl', 2],
      ['b/b.jsonl', 1],
    ],
  );
  assert.deepEqual(lookup.byExternalId('missing'), []);
  const plan = store.db
    .prepare<{ detail: string }>('EXPLAIN QUERY PLAN SELECT * FROM episode WHERE external_id = ?')
    .all('x')
    .map((r) => r.detail)
    .join(' ');
  assert.match(plan, /USING INDEX episode_external/);
});
