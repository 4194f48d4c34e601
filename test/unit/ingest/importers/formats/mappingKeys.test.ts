import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import type { AnySchemaObject } from 'ajv';
import { mapperFromSpec } from '../../../../../src/ingest/importers/formats/mapping/mapping';
import { explainMismatch } from '../../../../../src/ingest/importers/formats/mapping/rlMappingMismatch';
import type { FormatMapper, RecordContext } from '../../../../../src/ingest/importers/types';

const repoRoot = join(__dirname, '../../../../..');
const fixtures = join(repoRoot, 'test/fixtures/importers/mapping');
const schema = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true }).compile(
  readJson(join(repoRoot, 'schema/mapping.v1.schema.json')) as AnySchemaObject,
);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function build(spec: unknown): FormatMapper {
  const result = mapperFromSpec(spec);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

function context(uri: string): RecordContext {
  return { uri, fileName: uri.split('/').pop() ?? uri, index: 0, line: 1, roster: [] };
}

describe('mapping: object keys as fields (MAPoRL data.json)', () => {
  const spec = readJson(join(fixtures, 'maporl/maporl.mapping.json'));
  const doc = readJson(join(fixtures, 'maporl/data.json'));
  const result = build(spec).toEpisodes(doc, context('maporl/data.json'));
  assert.ok(result.ok, result.ok ? '' : result.error);
  const episodes = result.value;

  test('the mapping passes the JSON Schema', () => {
    assert.ok(schema(spec));
  });

  test('each question key is an episode; "$key" is its id and prompt', () => {
    assert.equal(episodes.length, 2);
    assert.match(episodes[0]?.id ?? '', /^Natalia sold clips/);
    assert.equal(episodes[0]?.prompt, episodes[0]?.id);
    assert.deepEqual(
      episodes.map((e) => [e.groundTruth, e.step]),
      [
        ['72', 0],
        ['10', 0],
      ],
    );
  });

  test('nested entries are messages: agent from the first wildcard key, turn from the second; "answer" is skipped', () => {
    assert.deepEqual(
      episodes[1]?.messages.map((m) => [m.agent, m.turn]),
      [
        ['Qwen2.5-3B-Instruct', 0],
        ['Qwen2.5-3B-Instruct', 1],
        ['Llama-3.2-3B-Instruct', 0],
        ['Llama-3.2-3B-Instruct', 1],
      ],
    );
    assert.equal(episodes[1]?.messages[2]?.content, 'She earns $12 an hour, so the answer is 12.');
  });
});

describe('mapping: parent-relative paths ("^")', () => {
  test('a message field reads the enclosing episode; "^$key" its key', () => {
    const m = build({
      format: 'p',
      episodes: '$.*',
      episode: { id: '$key' },
      messages: { path: '$.outputs[*]', agent: '^.model', content: '$', channel: '^$key' },
    });
    const result = m.toEpisodes({ e1: { model: 'solver', outputs: ['a', 'b'] } }, context('p.jsonl'));
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.deepEqual(result.value[0]?.messages, [
      { agent: 'solver', content: 'a', channel: 'e1' },
      { agent: 'solver', content: 'b', channel: 'e1' },
    ]);
  });

  test('"^" in an episode field reads the record the "episodes" path selected it in', () => {
    const m = build({
      format: 'p',
      episodes: '$.items[*]',
      episode: { step: '^.iteration' },
      messages: { path: '$.m[*]', agent: '$.a', content: '$.c' },
    });
    const result = m.toEpisodes({ iteration: 3, items: [{ m: [] }] }, context('p.jsonl'));
    assert.ok(result.ok);
    assert.equal(result.value[0]?.step, 3);
  });
});

describe('mapping: the file path as a field', () => {
  const spec = {
    format: 'f',
    episode: {
      step: { path: '$file', match: 'step_(\\d+)' },
      group: '$fileStem',
      task: { path: '$fileStem', match: 'no-capture' },
    },
    messages: { path: '$.m[*]', agent: '$.a', content: '$.c' },
  };

  test('"$file" through "match" gives the step; "$fileStem" the group; no match leaves the field absent', () => {
    assert.ok(schema(spec));
    const result = build(spec).toEpisodes({ m: [] }, context('runs/step_12.json'));
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.deepEqual(
      [result.value[0]?.step, result.value[0]?.group, result.value[0]?.task],
      [12, 'step_12', undefined],
    );
  });

  test('an invalid regular expression is a mapping error at its field', () => {
    const bad = mapperFromSpec({
      format: 'f',
      episode: { step: { path: '$file', match: '(' } },
      messages: { path: '$.m', agent: '$.a', content: '$.c' },
    });
    assert.ok(!bad.ok);
    assert.match(bad.error, /^mapping\.json: episode\.step\.match: not a regular expression/);
  });
});

describe('explainMismatch: why a mapping does not claim a file', () => {
  const spec = readJson(join(fixtures, 'team-logs.mapping.json'));
  const records = [{ history: [], meta: {} }, { history: [] }];

  test('names the file, the mapping, the path that found nothing and the keys seen', () => {
    assert.equal(
      explainMismatch(spec, 'team-logs.mapping.json', 'runs/a.teamlog.jsonl', {
        fileName: 'a.teamlog.jsonl',
        container: 'jsonl',
        records,
      }),
      'runs/a.teamlog.jsonl: mapping team-logs.mapping.json: "messages" path "$.turns[*]" found nothing in the first 2 records (keys seen: history, meta)',
    );
  });

  test('names a required message field that found nothing, the file name and the container', () => {
    const turns = [{ turns: [{ who: 'a', text: 'x' }] }];
    assert.match(
      explainMismatch(spec, 'm.json', 'a.teamlog.jsonl', {
        fileName: 'a.teamlog.jsonl',
        container: 'jsonl',
        records: turns,
      }) ?? '',
      /"messages\.agent" path "\$\.speaker" found nothing in the first 1 record \(keys seen: who, text\)$/,
    );
    assert.match(
      explainMismatch(spec, 'm.json', 'a.jsonl', { fileName: 'a.jsonl', container: 'jsonl', records }) ?? '',
      /matches none of "fileNames" \(\*\.teamlog\.jsonl\)$/,
    );
    assert.match(
      explainMismatch(spec, 'm.json', 'a.json', { fileName: 'a.teamlog.jsonl', container: 'json', records }) ?? '',
      /reads "jsonl" files, this is a "json" file$/,
    );
  });

  test('falls back to the first record error, and is undefined when the records map', () => {
    const lines = readFileSync(join(fixtures, 'run-a.teamlog.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
    assert.equal(
      explainMismatch(spec, 'm.json', 'a.teamlog.jsonl', {
        fileName: 'a.teamlog.jsonl',
        container: 'jsonl',
        records: lines,
      }),
      undefined,
    );
    const bad = [{ ...(lines[0] as object), iteration: 'twelve' }];
    assert.equal(
      explainMismatch(spec, 'm.json', 'a.teamlog.jsonl', {
        fileName: 'a.teamlog.jsonl',
        container: 'jsonl',
        records: bad,
      }),
      'a.teamlog.jsonl: mapping m.json: record 1: episode.step: $.iteration: cannot read "twelve"',
    );
  });
});
