import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import {
  recordAt,
  sampleRecords,
  selectionOf,
  streamRecords,
} from '../../../../src/ingest/importers/containers/container';
import type { ContainerItem } from '../../../../src/ingest/importers/containers/containerItem';
import { detectFormat } from '../../../../src/ingest/importers/detect';
import { inspectMapper } from '../../../../src/ingest/importers/formats/inspect/inspect';
import { formatMappers } from '../../../../src/ingest/importers/mappers';
import { importerList } from '../../../../src/ingest/importers/registry';
import type { ContainerKind } from '../../../../src/ingest/importers/types';
import { tempFolder } from '../../../builders/episodeBuilder';
import { zipArchive } from './zipWriter';

// Inspect AI ≥ 0.3.206 writes .eval entries with zstd (ZIP method 93); zstd parquet pages. The
// fixtures are written by test/fixtures/importers/inspect/make_zstd_eval.py and
// test/fixtures/importers/trl/make_zstd_parquet.py (see the READMEs there).

const fixtures = join(__dirname, '../../../fixtures/importers');
const zstdEval = join(fixtures, 'inspect/research-zstd.eval');
const deflateEval = join(fixtures, 'inspect/research-deflate.eval');
const selection = selectionOf(inspectMapper);

async function items(kind: ContainerKind, path: string): Promise<ContainerItem[]> {
  const all: ContainerItem[] = [];
  for await (const item of streamRecords(kind, path, kind === 'zip' ? selection : {})) all.push(item);
  return all;
}

/** The episodes of an Inspect .eval, entry by entry, as the indexer maps them (uri fixed so logs compare). */
async function episodesOf(path: string): Promise<Episode[]> {
  const out: Episode[] = [];
  for (const item of await items('zip', path)) {
    assert.equal(item.kind, 'record', item.kind === 'issue' ? item.reason : '');
    if (item.kind !== 'record') continue;
    const result = inspectMapper.toEpisodes(item.record, {
      uri: 'logs/research.eval',
      fileName: 'research.eval',
      index: item.index,
      line: item.locator.line,
      roster: [],
      header: item.header,
    });
    assert.ok(result.ok, result.ok ? '' : result.error);
    out.push(...result.value);
  }
  return out;
}

function file(name: string, content: Buffer): string {
  const path = join(tempFolder(), name);
  writeFileSync(path, content);
  return path;
}

test('a zstd .eval (method 93) is read entry by entry: the same episodes as the deflate log of the same run', async () => {
  const zstd = await episodesOf(zstdEval);
  assert.deepEqual(zstd, await episodesOf(deflateEval));
  assert.deepEqual(
    zstd.map((e) => [e.id, e.reward]),
    [
      ['logs/research:1:1', 1],
      ['logs/research:2:1', 1],
      ['logs/research:3:1', 0],
    ],
  );
  const first = zstd[0];
  assert.deepEqual(
    first?.agents.filter((a) => a.kind === 'llm').map((a) => [a.name, a.policy]),
    [
      ['supervisor', 'anthropic/claude-3-5-haiku'],
      ['researcher', 'anthropic/claude-3-5-sonnet'],
    ],
  );
  assert.deepEqual(
    first?.messages.filter((m) => m.role === 'assistant').map((m) => m.agent),
    ['supervisor', 'researcher', 'supervisor'],
  );
  assert.equal(first?.metadata?.['runId'], 'Zr7Tq2');
});

test('a zstd .eval is detected as Inspect, and its records are read back by locator', async () => {
  const detected = await detectFormat(zstdEval, 'research-zstd.eval', importerList(formatMappers));
  assert.ok(
    detected.ok && detected.value.mapper.format === 'inspect',
    detected.ok ? detected.value.mapper.format : detected.error,
  );
  const last = (await items('zip', zstdEval)).at(-1);
  assert.ok(last?.kind === 'record');
  const back = await recordAt('zip', zstdEval, selection, last.locator);
  assert.ok(back.ok);
  assert.deepEqual(back.value.record, last.record);
  assert.equal((back.value.header as Record<string, unknown>)['entry'], 'samples/3_epoch_1.json');
});

test('an entry with an unsupported method is a clear issue naming it, the archive and the method; the others are read', async () => {
  const entries = [
    { name: 'header.json', data: JSON.stringify({ eval: { task: 'math', run_id: 'r' } }) },
    { name: 'samples/1_epoch_1.json', data: JSON.stringify({ id: 1, epoch: 1, messages: [] }) },
    { name: 'samples/2_epoch_1.json', data: 'xz bytes', method: 95 },
    { name: 'samples/3_epoch_1.json', data: 'lzma bytes', method: 14 },
    { name: 'samples/4_epoch_1.json', data: JSON.stringify({ id: 4, epoch: 1, messages: [] }), method: 0 },
  ];
  const all = await items('zip', file('log.eval', zipArchive(entries)));
  assert.deepEqual(
    all.map((i) => (i.kind === 'record' ? `${i.locator.line}: record` : `${i.locator.line}: ${i.reason}`)),
    [
      '2: record',
      '3: samples/2_epoch_1.json: cannot read this entry of log.eval: compression method 95 (xz) is not supported (only stored, deflate and zstd)',
      '4: samples/3_epoch_1.json: cannot read this entry of log.eval: compression method 14 (LZMA) is not supported (only stored, deflate and zstd)',
      '5: record',
    ],
  );
});

test('damaged zstd data, a wrong recorded size and an unreadable header are issues at their entries', async () => {
  const good = JSON.stringify({ id: 1, epoch: 1, messages: [] });
  const all = await items(
    'zip',
    file(
      'bad.eval',
      zipArchive([
        { name: 'header.json', data: 'not zstd', method: 93 },
        { name: 'samples/1_epoch_1.json', data: Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff]), method: 93 },
        { name: 'samples/2_epoch_1.json', data: good, size: good.length + 5 },
        { name: 'samples/3_epoch_1.json', data: good },
      ]),
    ),
  );
  const reasons = all.map((i) =>
    i.kind === 'record' ? `${i.locator.line}: record ${JSON.stringify(i.header)}` : `${i.locator.line}: ${i.reason}`,
  );
  assert.match(
    reasons[0] ?? '',
    /^1: header\.json \(the header of bad\.eval\): cannot read this entry: the zstd data is damaged \(.+\); its records are read without it$/,
  );
  assert.match(
    reasons[1] ?? '',
    /^2: samples\/1_epoch_1\.json: cannot read this entry of bad\.eval: the zstd data is damaged/,
  );
  assert.equal(
    reasons[2],
    `3: samples/2_epoch_1.json: cannot read this entry of bad.eval: the entry is damaged (${good.length} bytes after decompression, ${good.length + 5} recorded)`,
  );
  assert.equal(reasons[3], '4: record {"entry":"samples/3_epoch_1.json"}');
});

test('an archive none of whose records can be read is a clear detection error, not "no importer recognises"', async () => {
  const path = file(
    'new.eval',
    zipArchive([
      { name: 'header.json', data: 'x', method: 98 },
      { name: 'samples/1_epoch_1.json', data: 'x', method: 98 },
    ]),
  );
  await assert.rejects(
    sampleRecords('zip', path, selection),
    /samples\/1_epoch_1\.json: cannot read this entry of new\.eval: compression method 98 \(PPMd\) is not supported/,
  );
  const detected = await detectFormat(path, 'new.eval', importerList(formatMappers));
  assert.ok(!detected.ok);
  assert.match(
    detected.error,
    /^cannot read the zip archive's records: samples\/1_epoch_1\.json: .*method 98 \(PPMd\)/,
  );
});

test('a zstd parquet file (pyarrow, two row groups) is read: the same rows as the TRL table it was written from', async () => {
  const path = join(fixtures, 'trl/zstd/completions_00010.parquet');
  const rows = JSON.parse(readFileSync(join(fixtures, 'trl/completions_00010.rows.json'), 'utf8')) as unknown[];
  const all = await items('parquet', path);
  assert.deepEqual(
    all.map((i) => (i.kind === 'record' ? i.record : i.reason)),
    rows,
  );
  assert.deepEqual(await recordAt('parquet', path, {}, { line: 4, offset: 3, length: 0 }), {
    ok: true,
    value: { record: rows[3], index: 3 },
  });
  const detected = await detectFormat(path, 'completions_00010.parquet', importerList(formatMappers));
  assert.ok(
    detected.ok && detected.value.mapper.format === 'trl',
    detected.ok ? detected.value.mapper.format : detected.error,
  );
});
