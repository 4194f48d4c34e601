import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TextPacker } from '../../../src/core/packedTexts';
import { batchOfJson, canonicalFormat, parseLines, type ParsedBatch } from '../../../src/ingest/parseLines';
import { episode, episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';

function parseFile(content: string, episodeJson?: TextPacker): ParsedBatch[] {
  const path = join(tempFolder(), 'a.jsonl');
  writeFileSync(path, content);
  const request = {
    path,
    uri: 'file:///a.jsonl',
    format: canonicalFormat,
    start: { offset: 0, line: 0 },
    roster: [],
    batchSize: 4,
  };
  const batches: ParsedBatch[] = [];
  parseLines(
    request,
    () => false,
    (batch) => batches.push(batch),
    episodeJson ? { episodeJson } : {},
  );
  return batches;
}

test('episodes serialised as they are parsed (ParseState.episodeJson) read back equal to the episodes kept as objects', () => {
  const content =
    jsonl(...episodes(0, 9)) +
    '{broken\n' +
    jsonl(episode('unicode', { messages: [{ agent: 'a', content: 'naïve 数学 🧮 "quoted" \\ back' }] }));
  const kept = parseFile(content);
  const packer = new TextPacker();
  const serialised = parseFile(content, packer);
  assert.equal(serialised.length, kept.length);
  assert.ok(kept.length >= 3, 'several batches, the last one empty of episodes or not');
  serialised.forEach((batch, i) => {
    assert.equal(batch.episodes.length, 0, 'no objects kept');
    const { episodeJson, ...rest } = batch;
    assert.ok(episodeJson, 'every batch carries its episodes as JSON, even an empty one');
    const back = batchOfJson(JSON.stringify(rest), episodeJson);
    assert.deepEqual(back, JSON.parse(JSON.stringify(kept[i])), `batch ${i}`);
  });
  assert.equal(kept.flatMap((b) => b.episodes).length, 10);
  assert.equal(kept.flatMap((b) => b.issues).length, 1);
});
