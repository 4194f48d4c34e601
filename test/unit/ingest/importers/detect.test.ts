import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ok } from '../../../../src/core/result';
import { canonicalFormat } from '../../../../src/ingest/importers/canonicalMapper';
import { detectFormat, forcedFormat } from '../../../../src/ingest/importers/detect';
import { importerList } from '../../../../src/ingest/importers/registry';
import type { FormatMapper } from '../../../../src/ingest/importers/types';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';
import { fakeMappers, fakeTau, fakeVerl } from './fakeMappers';
import { zipArchive } from './zipWriter';

const importers = importerList(fakeMappers);

async function detected(
  name: string,
  content: string | Buffer,
  list: readonly FormatMapper[] = importers,
): Promise<string> {
  const path = join(tempFolder(), name);
  writeFileSync(path, content);
  const result = await detectFormat(path, name, list);
  return result.ok ? result.value.mapper.format : `! ${result.error}`;
}

test('detectFormat() picks the importer by content, not by file name', async () => {
  assert.equal(await detected('rollouts.jsonl', jsonl(episode('e1'), episode('e2'))), canonicalFormat);
  assert.equal(await detected('12.jsonl', '{"input": "q", "output": "a", "score": 1}\n'), 'fake-verl');
  assert.equal(
    await detected('spans.ndjson', '{"trace": "t", "span": "s", "agent": "a", "text": "x"}\n'),
    'fake-spans',
  );
  assert.equal(await detected('traj.json', '[{"task_id": 1, "traj": []}]'), 'fake-tau');
  assert.equal(
    await detected('log.eval', zipArchive([{ name: 'header.json', data: '{"eval": {"run_id": "r"}}' }])),
    'fake-inspect',
  );
});

test('detectFormat() gives a new, empty JSONL file to the canonical format, and canonical wins ties', async () => {
  assert.equal(await detected('new.jsonl', ''), canonicalFormat);
  assert.equal(await detected('partial.jsonl', '{"id": "e1", "messa'), canonicalFormat);
  const sameScore: FormatMapper = { ...fakeVerl, format: 'always-one', detect: () => 1 };
  assert.equal(await detected('a.jsonl', jsonl(episode('e1')), importerList([sameScore])), canonicalFormat);
  assert.equal(await detected('a.jsonl', '{"x": 1}\n', importerList([sameScore])), 'always-one');
});

test('detectFormat() names the importers tried when none recognises the file, and survives a throwing detect()', async () => {
  const throwing: FormatMapper = {
    ...fakeTau,
    format: 'throws',
    detect: () => {
      throw new Error('boom');
    },
  };
  assert.equal(
    await detected('config.json', '{"lr": 0.1}', importerList([fakeTau, throwing])),
    '! no importer recognises this file (tried: fake-tau, throws)',
  );
  assert.equal(
    await detected('x.jsonl', '{"x": 1}\n{"y": 2}\n'),
    '! no importer recognises this file (tried: credit_lens_jsonl, fake-verl, fake-spans)',
  );
  assert.equal(await detected('table.parquet', 'PAR1', importerList([])), '! no importer reads .parquet files');
  assert.match(
    await detected('broken.eval', 'not a zip at all, but long enough to look for a directory'),
    /^! cannot read the zip archive: not a zip archive/,
  );
});

test('detectFormat() passes the root of a small JSON document and the first five records', async () => {
  const seen: unknown[] = [];
  const spy: FormatMapper = { ...fakeTau, format: 'spy', detect: (s) => (seen.push(s), 0), toEpisodes: () => ok([]) };
  await detected('many.json', JSON.stringify(Array.from({ length: 8 }, (_, i) => ({ i }))), [spy]);
  assert.deepEqual(seen[0], {
    fileName: 'many.json',
    container: 'json',
    records: [0, 1, 2, 3, 4].map((i) => ({ i })),
    root: Array.from({ length: 8 }, (_, i) => ({ i })),
  });
  // No match: every record of the wider sample is then scored alone.
  assert.deepEqual(
    seen.slice(1).map((s) => (s as { records: unknown[] }).records),
    Array.from({ length: 8 }, (_, i) => [{ i }]),
  );
});

test('forcedFormat() accepts a file of a container the importer reads, and says why not otherwise', () => {
  assert.deepEqual(forcedFormat('a.jsonl', fakeVerl), { ok: true, value: { mapper: fakeVerl, container: 'jsonl' } });
  assert.deepEqual(forcedFormat('b.parquet', fakeVerl), {
    ok: false,
    error: 'the forced format "fake-verl" does not read .parquet files (it reads jsonl)',
  });
});
