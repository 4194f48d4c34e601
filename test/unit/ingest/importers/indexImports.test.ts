import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatSummary } from '../../../../src/cli/formatSummary';
import { canonicalFormat } from '../../../../src/ingest/importers/canonicalMapper';
import { indexRunFolder, type IndexOptions } from '../../../../src/ingest/indexRunFolder';
import { readEpisode } from '../../../../src/ingest/readEpisode';
import { IndexStore } from '../../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';
import { fakeMappers } from './fakeMappers';
import { parquetFixtures } from './parquetFixtures';
import { zipArchive } from './zipWriter';

const options: IndexOptions = { mappers: fakeMappers };

function write(root: string, uri: string, content: string | Buffer): void {
  mkdirSync(join(root, uri, '..'), { recursive: true });
  writeFileSync(join(root, uri), content);
}

function sources(store: IndexStore): string[] {
  return (store.summary.summary().sources ?? []).map((s) => `${s.format}  ${s.file} ${s.episodes}`);
}

function errors(store: IndexStore): string[] {
  return store.summary.summary().errors.map((e) => `${e.file}:${e.line}: ${e.reason}`);
}

interface Located {
  external_id: string;
  uri: string;
  format: string;
  line: number;
  byte_offset: number;
  byte_length: number;
}

function located(store: IndexStore): Located[] {
  return store.db
    .prepare<Located>(
      'SELECT e.external_id, s.uri, s.format, e.line, e.byte_offset, e.byte_length FROM episode e JOIN source s USING (source_id) ORDER BY s.uri, e.line, e.external_id',
    )
    .all();
}

async function readBack(root: string, row: Located): Promise<string[]> {
  const read = await readEpisode(
    root,
    {
      uri: row.uri,
      format: row.format,
      line: row.line,
      offset: row.byte_offset,
      length: row.byte_length,
      externalId: row.external_id,
    },
    fakeMappers,
  );
  assert.ok(read.ok, read.ok ? '' : read.error);
  return read.value.messages.map((m) => `${m.agent}: ${m.content}`);
}

const tau = [
  {
    task_id: 1,
    trial: 0,
    reward: 1,
    traj: [
      { role: 'user', content: 'book a flight' },
      { role: 'assistant', content: 'booked' },
    ],
  },
  {
    task_id: 2,
    trial: 0,
    reward: 0,
    traj: [
      { role: 'user', content: 'cancel it' },
      { role: 'assistant', content: 'cannot' },
    ],
  },
];

function mixedFolder(): string {
  const root = tempFolder();
  write(root, 'a.jsonl', jsonl(episode('c1'), episode('c2')));
  write(
    root,
    'rollouts/12.jsonl',
    '{"input": "2+2?", "output": "4", "score": 1, "step": 12}\n{"input": "3+3?", "output": "6", "output2": "7", "score": 0, "step": 12}\n',
  );
  write(root, 'tau/historical.json', JSON.stringify(tau, null, 2));
  return root;
}

test("indexRunFolder() on a folder mixing three formats stores, summarises and prints each source's detected format", async () => {
  const root = mixedFolder();
  const store = IndexStore.open(':memory:');
  const tally = await indexRunFolder(root, store, options);
  assert.equal(tally.episodesAdded, 7);
  assert.deepEqual(sources(store), [
    `${canonicalFormat}  a.jsonl 2`,
    'fake-verl  rollouts/12.jsonl 3',
    'fake-tau  tau/historical.json 2',
  ]);
  assert.deepEqual(store.summary.summary().formats, [
    { format: 'credit_lens_jsonl', files: 1, episodes: 2 },
    { format: 'fake-tau', files: 1, episodes: 2 },
    { format: 'fake-verl', files: 1, episodes: 3 },
  ]);
  const printed = formatSummary(store.summary.summary());
  assert.ok(
    printed.includes('  formats    credit_lens_jsonl 1 file / 2 ep; fake-tau 1 file / 2 ep; fake-verl 1 file / 3 ep'),
    printed.join('\n'),
  );
  assert.ok(printed.includes('    fake-verl          rollouts/12.jsonl (3 episodes)'), printed.join('\n'));
  assert.ok(printed.includes('    fake-tau           tau/historical.json (2 episodes)'), printed.join('\n'));
  assert.deepEqual(errors(store), []);
});

test('every imported episode reads back through its container and importer, and its messages are searchable', async () => {
  const root = mixedFolder();
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, options);
  const rows = located(store);
  assert.deepEqual(
    rows.map((r) => `${r.uri}:${r.line} ${r.external_id}`),
    [
      'a.jsonl:1 c1',
      'a.jsonl:2 c2',
      'rollouts/12.jsonl:1 12.jsonl:1',
      'rollouts/12.jsonl:2 12.jsonl:2',
      'rollouts/12.jsonl:2 12.jsonl:2#2',
      'tau/historical.json:2 task-1-0',
      'tau/historical.json:17 task-2-0',
    ],
  );
  const byId = new Map(rows.map((r) => [r.external_id, r]));
  assert.deepEqual(await readBack(root, byId.get('12.jsonl:2#2')!), ['user: 3+3?', 'policy: 7']);
  assert.deepEqual(await readBack(root, byId.get('12.jsonl:2')!), ['user: 3+3?', 'policy: 6']);
  assert.deepEqual(await readBack(root, byId.get('task-2-0')!), ['user: cancel it', 'assistant: cannot']);
  assert.equal(store.summary.summary().searchableEpisodes, 7);
  const hits = store.search.search('cannot');
  const ids = store.db
    .prepare<{ episode_id: number }>("SELECT episode_id FROM episode WHERE external_id = 'task-2-0'")
    .all()
    .map((r) => r.episode_id);
  assert.deepEqual(hits, ids);
});

test('a re-run reads nothing unchanged; a JSON file that changes is imported again whole, JSONL lines are appended', async () => {
  const root = mixedFolder();
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, options);
  const again = await indexRunFolder(root, store, options);
  assert.deepEqual([again.filesUnchanged, again.bytesRead, again.episodesAdded], [3, 0, 0]);
  write(root, 'tau/historical.json', JSON.stringify([tau[1]]));
  appendFileSync(join(root, 'rollouts/12.jsonl'), '{"input": "5+5?", "output": "10", "score": 1}\n');
  const third = await indexRunFolder(root, store, options);
  assert.deepEqual(
    [third.filesUnchanged, third.filesAppended, third.filesReindexed, third.episodesAdded],
    [1, 1, 1, 2],
  );
  assert.deepEqual(sources(store), [
    `${canonicalFormat}  a.jsonl 2`,
    'fake-verl  rollouts/12.jsonl 4',
    'fake-tau  tau/historical.json 1',
  ]);
  assert.deepEqual(
    located(store)
      .filter((r) => r.uri === 'tau/historical.json')
      .map((r) => r.external_id),
    ['task-2-0'],
  );
});

test('a record an importer rejects is an issue at its file and line; everything around it is indexed', async () => {
  const root = tempFolder();
  write(
    root,
    'traj.json',
    `[\n${JSON.stringify(tau[0])},\n{"task_id": 9, "trial": 0, "traj": "oops"},\n{"task_id": 3, "traj": [{"role": "user"}]},\n${JSON.stringify(tau[1])}\n]`,
  );
  write(root, '7.jsonl', '{"input": "q", "output": "a"}\n{"input": "q"}\nnot json\n{"input": "r", "output": "b"}\n');
  const store = IndexStore.open(':memory:');
  const tally = await indexRunFolder(root, store, options);
  assert.equal(tally.episodesAdded, 4);
  const found = errors(store);
  assert.equal(found.length, 4);
  assert.equal(found[0], '7.jsonl:2: not a fake-verl record: missing "output"');
  assert.match(found[1] ?? '', /^7\.jsonl:3: invalid JSON: /);
  assert.equal(found[2], 'traj.json:3: not a fake-tau record: missing "traj"');
  assert.equal(
    found[3],
    'traj.json:4: the fake-tau importer made an invalid episode: reward: expected a finite number, got number',
  );
  assert.deepEqual(
    located(store).map((r) => `${r.uri}:${r.line}`),
    ['7.jsonl:1', '7.jsonl:4', 'traj.json:2', 'traj.json:5'],
  );
});

test('a file no importer recognises is one issue naming the importers tried, kept until the file changes', async () => {
  const root = mixedFolder();
  // Not a side file: its record has an episode-like key (`turns`), so it is an error, not an other file.
  write(root, 'odd.json', '{"turns": "none logged"}');
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, options);
  assert.deepEqual(errors(store), ['odd.json:0: no importer recognises this file (tried: fake-tau)']);
  assert.ok(sources(store).includes('unknown  odd.json 0'));
  const again = await indexRunFolder(root, store, options);
  assert.equal(again.issues, 0);
  assert.equal(store.summary.summary().errorCount, 1);
  write(root, 'odd.json', JSON.stringify([{ ...tau[0], task_id: 5 }]));
  await indexRunFolder(root, store, options);
  assert.deepEqual(errors(store), []);
  assert.ok(sources(store).includes('fake-tau  odd.json 1'));
});

test('--format forces one importer for every file; a file of another container is an issue; unknown names are refused', async () => {
  const root = tempFolder();
  write(root, 'odd.jsonl', '{"input": "q", "output": "a", "messages": "not canonical either"}\n');
  write(root, 'traj.json', JSON.stringify(tau));
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, { ...options, format: 'fake-verl' });
  assert.deepEqual(sources(store), ['fake-verl  odd.jsonl 1', 'unknown  traj.json 0']);
  assert.deepEqual(errors(store), [
    'traj.json:0: the forced format "fake-verl" does not read .json files (it reads jsonl)',
  ]);
  await indexRunFolder(root, store, { ...options, format: canonicalFormat });
  assert.match(errors(store)[0] ?? '', /^odd\.jsonl:1: invalid episode: /);
  await assert.rejects(
    indexRunFolder(root, store, { ...options, format: 'nope' }),
    /unknown format "nope" \(known: credit_lens_jsonl, fake-verl, fake-tau, fake-inspect, fake-trl, fake-spans\)/,
  );
});

test('a config-like side file beside a run (the benchmark marker dataset.json) is an other file, also under --format', async () => {
  const root = tempFolder();
  write(root, 'dataset.json', JSON.stringify({ episodes: 130000, groupsPerStep: 64, verbose: true, seed: 7 }));
  write(root, 'run-a/rollouts.jsonl', '{"input": "q", "output": "a"}\n');
  for (const format of [undefined, 'fake-verl', canonicalFormat]) {
    const store = IndexStore.open(':memory:');
    const tally = await indexRunFolder(root, store, { ...options, ...(format ? { format } : {}) });
    assert.equal(tally.otherFiles, 1, `format ${String(format)}`);
    assert.ok(!errors(store).some((e) => e.startsWith('dataset.json')), errors(store).join('\n'));
    assert.deepEqual(store.summary.summary().otherFiles, ['dataset.json']);
  }
});

test("run.json traceFormat forces the importer of the run's files; an unknown one makes the run unreadable", async () => {
  const root = tempFolder();
  write(
    root,
    'run.json',
    JSON.stringify({ format: 'credit-lens', version: '1.0', traceFormat: 'fake-verl', agents: ['solver'] }),
  );
  write(root, 'x.jsonl', '{"input": "q", "output": "a", "id": "e1", "messages": []}\n');
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, options);
  assert.deepEqual(sources(store), ['fake-verl  x.jsonl 1']);
  const [row] = located(store);
  assert.deepEqual(await readBack(root, row!), ['user: q', 'solver: a'], "read back with the run's roster");
  write(root, 'run.json', JSON.stringify({ format: 'credit-lens', version: '1.0', traceFormat: 'verl9' }));
  const tally = await indexRunFolder(root, store, options);
  assert.match(tally.fatal[0] ?? '', /^run\.json:0: invalid run manifest: traceFormat: unknown format "verl9"/);
});

test('Inspect-like archives and whole-file importers: records of a zip, episodes grouped across lines', async () => {
  const root = tempFolder();
  write(
    root,
    'logs/run.eval',
    zipArchive([
      { name: 'header.json', data: JSON.stringify({ eval: { run_id: 'r7' } }) },
      {
        name: 'samples/1_epoch_1.json',
        data: JSON.stringify({ id: 1, epoch: 1, messages: [{ source: 'solver', content: 'x = 2' }] }),
      },
      { name: 'samples/2_epoch_1.json', data: JSON.stringify({ id: 2, epoch: 1, messages: [{ content: 'y = 3' }] }) },
    ]),
  );
  write(
    root,
    'spans.jsonl',
    ['t1', 't2', 't1']
      .map((trace, i) => JSON.stringify({ trace, span: `s${i}`, agent: `a${i}`, text: `m${i}` }))
      .join('\n') + '\n',
  );
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, options);
  assert.deepEqual(sources(store), ['fake-inspect  logs/run.eval 2', 'fake-spans  spans.jsonl 2']);
  const rows = located(store);
  assert.deepEqual(
    rows.map((r) => `${r.uri}:${r.line} ${r.external_id}`),
    ['logs/run.eval:2 r7:1:1', 'logs/run.eval:3 r7:2:1', 'spans.jsonl:1 t1', 'spans.jsonl:1 t2'],
  );
  assert.deepEqual(await readBack(root, rows[1]!), ['assistant: y = 3']);
  assert.deepEqual(await readBack(root, rows[2]!), ['a0: m0', 'a2: m2']);
  appendFileSync(
    join(root, 'spans.jsonl'),
    `${JSON.stringify({ trace: 't3', span: 's3', agent: 'a', text: 'late' })}\n`,
  );
  const tally = await indexRunFolder(root, store, options);
  assert.deepEqual([tally.filesReindexed, tally.filesAppended], [1, 0], 'a whole-file importer re-reads the file');
  assert.ok(sources(store).includes('fake-spans  spans.jsonl 3'));
});

test('dedupeRepeats: rows repeated across Parquet files are skipped silently; removing the first copy restores them', async () => {
  const root = tempFolder();
  write(root, 'completions/completions_00010.parquet', Buffer.from(parquetFixtures.a, 'base64'));
  write(root, 'completions/completions_00011.parquet', Buffer.from(parquetFixtures.b, 'base64'));
  const store = IndexStore.open(':memory:');
  const tally = await indexRunFolder(root, store, options);
  assert.deepEqual([tally.episodesAdded, tally.repeatsSkipped, tally.issues], [6, 2, 0]);
  assert.deepEqual(sources(store), [
    'fake-trl  completions/completions_00010.parquet 4',
    'fake-trl  completions/completions_00011.parquet 2',
  ]);
  const row = located(store).find((r) => r.external_id === 'What is 5 + 5?|It is 10.');
  assert.ok(row && row.line === 4 && row.byte_offset === 3);
  assert.deepEqual(await readBack(root, row), ['user: What is 5 + 5?', 'policy: It is 10.']);
  rmSync(join(root, 'completions/completions_00010.parquet'));
  await indexRunFolder(root, store, options);
  assert.deepEqual(sources(store), ['fake-trl  completions/completions_00011.parquet 4']);
  assert.deepEqual(errors(store), []);
});

test('readEpisode() of an imported record that changed says so with file and line', async () => {
  const root = mixedFolder();
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, options);
  const row = located(store).find((r) => r.external_id === 'task-2-0')!;
  write(root, 'tau/historical.json', '[]');
  const read = await readEpisode(
    root,
    {
      uri: row.uri,
      format: row.format,
      line: row.line,
      offset: row.byte_offset,
      length: row.byte_length,
      externalId: row.external_id,
    },
    fakeMappers,
  );
  assert.deepEqual(read, {
    ok: false,
    error: 'tau/historical.json:17: the file is shorter than when it was indexed; re-index the run',
  });
  write(root, 'tau/historical.json', JSON.stringify(tau, null, 2).replace('task_id": 2', 'task_id": 8'));
  utimesSync(join(root, 'tau/historical.json'), new Date(), new Date());
  const changed = await readEpisode(
    root,
    {
      uri: row.uri,
      format: row.format,
      line: row.line,
      offset: row.byte_offset,
      length: row.byte_length,
      externalId: row.external_id,
    },
    fakeMappers,
  );
  assert.deepEqual(changed, {
    ok: false,
    error: 'tau/historical.json:17: episode "task-2-0" is no longer in this record; re-index the run',
  });
});

test('a mapping file next to the traces is an importer for its folder and below (lines rebuild it from the file, as in the parse worker)', async () => {
  const root = tempFolder();
  const mapping = {
    format: 'team-logs',
    label: 'Team logs',
    container: 'jsonl',
    fileNames: ['*.teamlog.jsonl'],
    episode: { id: '$.uid', reward: '$.score' },
    messages: { path: '$.turns[*]', agent: '$.speaker', content: '$.text' },
  };
  write(root, 'team/team-logs.mapping.json', JSON.stringify(mapping));
  write(
    root,
    'team/a.teamlog.jsonl',
    `${JSON.stringify({
      uid: 'u1',
      score: 1,
      turns: [
        { speaker: 'planner', text: 'split it' },
        { speaker: 'solver', text: '51' },
      ],
    })}\n`,
  );
  write(root, 'other.teamlog.jsonl', `${JSON.stringify({ uid: 'u2', turns: [] })}\n`);
  write(root, 'broken.mapping.json', '{"format": "x", "messages": {"path": "uid"}}');
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, options);
  assert.deepEqual(sources(store), ['unknown  other.teamlog.jsonl 0', 'team-logs  team/a.teamlog.jsonl 1']);
  const found = errors(store);
  assert.match(found[0] ?? '', /^broken\.mapping\.json:0: invalid mapping file: /);
  assert.equal(
    found[1],
    'other.teamlog.jsonl:0: no importer recognises this file (tried: credit_lens_jsonl, fake-verl, fake-spans)',
  );
  const [row] = located(store);
  assert.deepEqual(await readBack(root, row!), ['planner: split it', 'solver: 51']);
  assert.equal(store.summary.summary().files, 2, 'a mapping file is not a trace file');
  rmSync(join(root, 'broken.mapping.json'));
  await indexRunFolder(root, store, options);
  assert.equal(errors(store).length, 1, 'the issue of a mapping file goes with it');
});
