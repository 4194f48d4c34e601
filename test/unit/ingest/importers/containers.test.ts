import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { recordAt, sampleRecords, streamRecords } from '../../../../src/ingest/importers/containers/container';
import type { ContainerItem, RecordSelection } from '../../../../src/ingest/importers/containers/containerItem';
import type { ContainerKind } from '../../../../src/ingest/importers/types';
import { tempFolder } from '../../../builders/episodeBuilder';
import { parquetFixtures } from './parquetFixtures';
import { zipArchive } from './zipWriter';

async function items(kind: ContainerKind, path: string, selection: RecordSelection = {}): Promise<ContainerItem[]> {
  const all: ContainerItem[] = [];
  for await (const item of streamRecords(kind, path, selection)) all.push(item);
  return all;
}

function brief(item: ContainerItem): string {
  return item.kind === 'record'
    ? `${item.locator.line}: ${JSON.stringify(item.record)}`
    : `${item.locator.line}: ! ${item.reason}`;
}

function file(name: string, content: string | Buffer): string {
  const path = join(tempFolder(), name);
  writeFileSync(path, content);
  return path;
}

test('jsonl records: one per non-blank complete line, a bad line is an issue, a partial last line waits', async () => {
  const path = file('a.jsonl', '\uFEFF{"a":1}\r\n\n{"b":\n{"c":3}\n{"partial"');
  assert.deepEqual((await items('jsonl', path)).map(brief), [
    '1: {"a":1}',
    `3: ! invalid JSON: ${jsonError('{"b":')}`,
    '4: {"c":3}',
  ]);
  const [, , c] = await items('jsonl', path);
  assert.ok(c?.kind === 'record');
  assert.deepEqual(await recordAt('jsonl', path, {}, c.locator), { ok: true, value: { record: { c: 3 }, index: 3 } });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

test('json records: array elements with byte ranges, a broken element is an issue at its line and the rest are kept', async () => {
  const text =
    '[\n  {"task_id": 1, "reward": 1},\n  {"task_id": 2, "reward": tru},\n  {"task_id": 3, "reward": 0}\n]\n';
  const path = file('traj.json', text);
  const all = await items('json', path, { json: 'array' });
  assert.deepEqual(
    all.map((i) => [i.kind, i.locator.line]),
    [
      ['record', 2],
      ['issue', 3],
      ['record', 4],
    ],
  );
  const third = all[2];
  assert.ok(third?.kind === 'record');
  assert.equal(third.index, 2);
  assert.deepEqual(await recordAt('json', path, { json: 'array' }, third.locator), {
    ok: true,
    value: { record: { task_id: 3, reward: 0 }, index: 2 },
  });
});

test('json records: a property array streams with the root properties before it as header; root selection reads the document', async () => {
  const path = file(
    'log.json',
    JSON.stringify(
      { version: 2, eval: { run_id: 'r1' }, samples: [{ id: 'a' }, { id: 'b' }], reductions: [] },
      null,
      1,
    ),
  );
  const all = await items('json', path, { json: { property: 'samples' } });
  assert.deepEqual(
    all.map((i) => (i.kind === 'record' ? [i.record, i.index, i.header] : i.reason)),
    [
      [{ id: 'a' }, 0, { version: 2, eval: { run_id: 'r1' } }],
      [{ id: 'b' }, 1, { version: 2, eval: { run_id: 'r1' } }],
    ],
  );
  const second = all[1];
  assert.ok(second?.kind === 'record');
  const back = await recordAt('json', path, { json: { property: 'samples' } }, second.locator);
  assert.deepEqual(back, {
    ok: true,
    value: { record: { id: 'b' }, index: 1, header: { version: 2, eval: { run_id: 'r1' } } },
  });
  const root = await items('json', path, { json: 'root' });
  assert.equal(root.length, 1);
  assert.ok(root[0]?.kind === 'record' && root[0].locator.line === 1 && root[0].index === 0);
});

test('json records: an unclosed document ends with an issue at its line after the complete records', async () => {
  const path = file('cut.json', '[{"a": 1},\n{"b": 2},\n{"c": ');
  assert.deepEqual((await items('json', path, { json: 'array' })).map(brief), [
    '1: {"a":1}',
    '2: {"b":2}',
    '3: ! invalid JSON: unexpected end of file: the JSON document is incomplete (the record starting at line 3 is not closed)',
  ]);
});

test('zip records: stored and deflated entries, the header passed with the entry name, read back by locator', async () => {
  const path = file(
    'log.eval',
    zipArchive([
      { name: 'header.json', data: JSON.stringify({ eval: { task: 'math' } }) },
      { name: '_journal/start.json', data: '{}' },
      { name: 'samples/1_epoch_1.json', data: JSON.stringify({ id: 1, epoch: 1 }), method: 0 },
      { name: 'samples/2_epoch_1.json', data: '{"id": 2, "epoch": ' },
      { name: 'samples/3_epoch_1.json', data: JSON.stringify({ id: 3, epoch: 1 }) },
    ]),
  );
  const selection = { zipRecords: /^samples\/.*\.json$/ };
  const all = await items('zip', path, selection);
  assert.deepEqual(
    all.map((i) => [i.kind, i.locator.line]),
    [
      ['record', 3],
      ['issue', 4],
      ['record', 5],
    ],
  );
  assert.match(all[1]?.kind === 'issue' ? all[1].reason : '', /^samples\/2_epoch_1\.json: invalid JSON: /);
  const last = all[2];
  assert.ok(last?.kind === 'record');
  assert.deepEqual(last.header, { eval: { task: 'math' }, entry: 'samples/3_epoch_1.json' });
  const back = await recordAt('zip', path, selection, last.locator);
  assert.deepEqual(back, {
    ok: true,
    value: {
      record: { id: 3, epoch: 1 },
      index: 4,
      header: { eval: { task: 'math' }, entry: 'samples/3_epoch_1.json' },
    },
  });
  const sample = await sampleRecords('zip', path, selection);
  assert.deepEqual(sample, {
    records: [
      { id: 1, epoch: 1 },
      { id: 3, epoch: 1 },
    ],
    root: { eval: { task: 'math' } },
  });
});

test('zip records: zip64, truncated and non-zip files are one clear issue for the whole file', async () => {
  const zip64 = file('big.eval', zipArchive([{ name: 'samples/a.json', data: '{}' }], { zip64Locator: true }));
  assert.deepEqual((await items('zip', zip64)).map(brief), [
    '0: ! cannot read the zip archive: zip64 archives are not supported (more than 65,535 entries or 4 GiB); split the log',
  ]);
  const whole = zipArchive([{ name: 'samples/a.json', data: '{"a": 1}' }]);
  const cut = file('cut.eval', whole.subarray(0, whole.length - 30));
  assert.match(
    brief((await items('zip', cut))[0] as ContainerItem),
    /^0: ! cannot read the zip archive: not a zip archive/,
  );
  assert.match(
    brief((await items('zip', file('text.eval', 'hello')))[0] as ContainerItem),
    /^0: ! cannot read the zip archive: not a zip archive \(too short\)/,
  );
  await assert.rejects(sampleRecords('zip', zip64, {}), /zip64/);
});

test('parquet records: rows as plain objects across row groups (INT64 as numbers), read back by row index', async () => {
  const path = file('completions_00010.parquet', Buffer.from(parquetFixtures.a, 'base64'));
  const all = await items('parquet', path);
  assert.equal(all.length, 4);
  assert.deepEqual(
    all.map((i) => [i.kind, i.locator.line, i.locator.offset]),
    [
      ['record', 1, 0],
      ['record', 2, 1],
      ['record', 3, 2],
      ['record', 4, 3],
    ],
  );
  assert.deepEqual(all[2]?.kind === 'record' ? all[2].record : undefined, {
    step: 11,
    prompt: 'What is 2 + 2?',
    completion: 'It is 4.',
    reward: 0,
  });
  const back = await recordAt('parquet', path, {}, { line: 4, offset: 3, length: 0 });
  assert.deepEqual(back, {
    ok: true,
    value: { record: { step: 11, prompt: 'What is 3 + 3?', completion: 'It is 6.', reward: 1 }, index: 3 },
  });
  assert.deepEqual(await recordAt('parquet', path, {}, { line: 9, offset: 8, length: 0 }), {
    ok: false,
    error: 'the file has fewer rows than when it was indexed; re-index the run',
  });
  assert.equal((await sampleRecords('parquet', path, {})).records.length, 4);
  assert.match(
    brief((await items('parquet', file('bad.parquet', 'not parquet')))[0] as ContainerItem),
    /^0: ! cannot read the Parquet file: /,
  );
});
