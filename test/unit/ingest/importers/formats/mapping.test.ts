import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import type { AnySchemaObject } from 'ajv';
import type { Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { globMatches, parsePath, selectAll } from '../../../../../src/ingest/importers/formats/mapping/rlPath';
import { mapperFromSpec } from '../../../../../src/ingest/importers/formats/mapping/mapping';
import type { FormatMapper, RecordContext } from '../../../../../src/ingest/importers/types';

const repoRoot = join(__dirname, '../../../../..');
const fixtures = join(repoRoot, 'test/fixtures/importers/mapping');
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
const schema = ajv.compile(readJson(join(repoRoot, 'schema/mapping.v1.schema.json')) as AnySchemaObject);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function mapper(file: string): FormatMapper {
  const result = mapperFromSpec(readJson(join(fixtures, file)), file);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

function context(uri: string, index: number): RecordContext {
  return { uri, fileName: uri.split('/').pop() ?? uri, index, line: index + 1, roster: [] };
}

function mapAll(m: FormatMapper, uri: string, records: readonly unknown[]): Episode[] {
  return records.flatMap((record, i) => {
    const result = m.toEpisodes(record, context(uri, i));
    assert.ok(result.ok, result.ok ? '' : result.error);
    for (const episode of result.value) {
      const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
      assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
    }
    return result.value;
  });
}

const teamLines = readFileSync(join(fixtures, 'run-a.teamlog.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as unknown);

describe('mapperFromSpec: a JSONL mapping', () => {
  const m = mapper('team-logs.mapping.json');
  const episodes = mapAll(m, 'logs/run-a.teamlog.jsonl', teamLines);

  test('builds a mapper with the format, label and container of the file', () => {
    assert.deepEqual(
      [m.format, m.label, m.containers, m.jsonRecords],
      ['team-logs', 'Team chat logs', ['jsonl'], undefined],
    );
  });

  test('maps every episode field from its path', () => {
    const [e] = episodes;
    assert.deepEqual(e, {
      id: 'run-a/12/0',
      step: 12,
      group: 'g-q7',
      sample: 0,
      task: 'q7',
      split: 'train',
      prompt: 'What is 17*3?',
      agents: [
        { name: 'planner', kind: 'llm', description: 'Breaks the problem down' },
        { name: 'solver', kind: 'llm', description: 'Computes the answer' },
        { name: 'calculator', kind: 'tool' },
      ],
      messages: [
        { agent: 'planner', turn: 0, role: 'assistant', content: 'Multiply 17 by 3.' },
        { agent: 'calculator', turn: 0, role: 'assistant', content: '51' },
        { agent: 'solver', turn: 1, role: 'assistant', content: '51' },
      ],
      final: { answer: '51', agent: 'solver' },
      reward: 1,
      agentRewards: { planner: 0.4, solver: 0.6 },
      groundTruth: '51',
      metadata: { seed: 7, model: 'qwen-7b' },
    });
  });

  test('reads drifted types: string step and rewards, text parts, null content', () => {
    const e = episodes[1];
    assert.equal(e?.step, 12);
    assert.equal(e?.reward, 0);
    assert.deepEqual(e?.agentRewards, { planner: 0, solver: 0 });
    assert.equal(e?.messages[0]?.content, 'Add 17\nthree times.');
    assert.equal(e?.messages[1]?.content, '');
    assert.equal(e?.final, undefined);
  });

  test('keeps numeric ids and speakers as their decimal text', () => {
    const e = episodes[2];
    assert.equal(e?.id, '3');
    assert.deepEqual(
      e?.messages.map((msg) => msg.agent),
      ['1', '2'],
    );
    assert.equal(e?.reward, 1);
    assert.equal(e?.agentRewards, undefined);
  });

  test('names the field, path and value a record cannot give', () => {
    const run = (record: unknown): string => {
      const result = m.toEpisodes(record, context('x.teamlog.jsonl', 0));
      assert.ok(!result.ok);
      return result.error;
    };
    assert.equal(run({ turns: [{ text: 'hi' }] }), 'messages[0].agent: $.speaker is missing');
    assert.equal(run({ turns: [{ speaker: 'a' }] }), 'messages[0].content: $.text is missing');
    assert.equal(run({ iteration: 'twelve', turns: [] }), 'episode.step: $.iteration: cannot read "twelve"');
    assert.equal(run({ score: { v: 1 }, turns: [] }), 'episode.reward: $.score: cannot read a value of type object');
    assert.equal(run({ uid: 'x' }), 'messages: $.turns[*] is missing');
    assert.equal(run('text'), 'expected the episode to be an object, got string');
  });

  test('defaults the id to the record place when the mapping has none', () => {
    const spec = { format: 'x', messages: { path: '$.m', agent: '$.a', content: '$.c' } };
    const built = mapperFromSpec(spec);
    assert.ok(built.ok);
    const result = built.value.toEpisodes({ m: [{ a: 'p', c: 'hi' }] }, context('logs/a.jsonl', 4));
    assert.deepEqual(result, {
      ok: true,
      value: [{ id: 'logs/a.jsonl:5', messages: [{ agent: 'p', content: 'hi' }] }],
    });
  });
});

describe('mapperFromSpec: a JSON mapping with several messages per round', () => {
  const m = mapper('debates.mapping.json');
  const doc = readJson(join(fixtures, 'debates.json')) as { episodes: unknown[] };
  const episodes = mapAll(m, 'debates.json', doc.episodes);

  test('selects records from a property of the document and flattens nested message lists', () => {
    assert.deepEqual(m.jsonRecords, { property: 'episodes' });
    assert.deepEqual(m.containers, ['json']);
    assert.deepEqual(
      episodes[0]?.messages.map((msg) => [msg.agent, msg.content, msg.channel]),
      [
        ['pro', 'A', 'speech'],
        ['con', 'B', 'speech'],
        ['pro', 'C', 'speech'],
      ],
    );
    assert.deepEqual(episodes[0]?.agents, [
      { name: 'pro', kind: 'llm' },
      { name: 'con', kind: 'llm' },
    ]);
    assert.equal(episodes[0]?.groundTruth, '{"winner":"pro"}');
    assert.deepEqual(episodes[1]?.messages, []);
  });

  test('reads several episodes from one record with an "episodes" path', () => {
    const built = mapperFromSpec({
      format: 'batch',
      episodes: '$.items[*]',
      messages: { path: '$.m[*]', agent: '$.a', content: '$.c' },
    });
    assert.ok(built.ok);
    const result = built.value.toEpisodes({ items: [{ m: [] }, { m: [{ a: 'x', c: 'y' }] }] }, context('b.jsonl', 0));
    assert.ok(result.ok);
    assert.deepEqual(
      result.value.map((e) => e.id),
      ['b.jsonl:1#0', 'b.jsonl:1#1'],
    );
    const bad = built.value.toEpisodes({ items: [{ m: [] }, 'oops'] }, context('b.jsonl', 0));
    assert.deepEqual(bad, {
      ok: false,
      error: 'episode 1 ($.items[*]): expected the episode to be an object, got string',
    });
  });
});

describe('mapperFromSpec: detection', () => {
  const m = mapper('team-logs.mapping.json');

  test('scores the share of sampled records that map, only for matching file names and containers', () => {
    assert.equal(m.detect({ fileName: 'run-a.teamlog.jsonl', container: 'jsonl', records: teamLines }), 1);
    assert.equal(
      m.detect({
        fileName: 'run-a.teamlog.jsonl',
        container: 'jsonl',
        records: [...teamLines.slice(0, 1), { other: true }],
      }),
      0.5,
    );
    assert.equal(m.detect({ fileName: 'run-a.jsonl', container: 'jsonl', records: teamLines }), 0);
    assert.equal(m.detect({ fileName: 'run-a.teamlog.jsonl', container: 'json', records: teamLines }), 0);
  });
});

describe('mapping files: validator and JSON Schema agree', () => {
  const expected = readJson(join(fixtures, 'invalid/expected-errors.json')) as Record<string, string>;
  const invalid = readdirSync(join(fixtures, 'invalid')).filter((f) => f.endsWith('.mapping.json'));

  test('every valid fixture passes the schema', () => {
    for (const file of ['team-logs.mapping.json', 'debates.mapping.json']) {
      assert.ok(schema(readJson(join(fixtures, file))), `${file}: ${ajv.errorsText(schema.errors)}`);
    }
  });

  test('every invalid fixture is rejected by both, with the documented error', () => {
    assert.equal(invalid.length, Object.keys(expected).length);
    for (const file of invalid) {
      const spec = readJson(join(fixtures, 'invalid', file));
      assert.deepEqual(mapperFromSpec(spec), { ok: false, error: expected[file] }, file);
      assert.equal(schema(spec), false, `${file} must fail the schema`);
    }
  });
});

describe('docs/mapping.md', () => {
  test('shows the committed example mapping and its first line', () => {
    const doc = readFileSync(join(repoRoot, 'docs/mapping.md'), 'utf8');
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] ?? '') as unknown);
    assert.deepEqual(blocks[0], teamLines[0]);
    assert.deepEqual(blocks[1], readJson(join(fixtures, 'team-logs.mapping.json')));
  });
});

describe('rlPath', () => {
  const path = (text: string) => {
    const parsed = parsePath(text);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    return parsed.value;
  };

  test('selectAll(path, value) reads properties, quoted names, negative indices and wildcards', () => {
    const value = { a: [{ b: 1 }, { b: 2 }], 'odd key': { 'x.y': 'z' }, o: { p: 1, q: 2 } };
    assert.deepEqual(selectAll(path('$.a[*].b'), value), [1, 2]);
    assert.deepEqual(selectAll(path('$.a[-1].b'), value), [2]);
    assert.deepEqual(selectAll(path('$["odd key"][\'x.y\']'), value), ['z']);
    assert.deepEqual(selectAll(path('$.o.*'), value), [1, 2]);
    assert.deepEqual(selectAll(path('$'), value), [value]);
    assert.deepEqual(selectAll(path('$.a[5].b'), value), []);
  });

  test('selectAll(path, value) never reads inherited properties', () => {
    assert.deepEqual(selectAll(path('$.constructor'), {}), []);
    assert.deepEqual(selectAll(path('$.__proto__'), {}), []);
  });

  test('parsePath(text) explains malformed paths', () => {
    assert.deepEqual(parsePath('id'), { ok: false, error: 'expected a path like "$.id", got "id"' });
    assert.deepEqual(parsePath('$..a'), { ok: false, error: '"$..a": empty property name at position 2' });
    assert.deepEqual(parsePath('$[x]'), { ok: false, error: '"$[x]": "[x]" is not an index, "*" or a quoted name' });
  });

  test('globMatches(pattern, name) matches * and ? and nothing else specially', () => {
    assert.ok(globMatches('*.teamlog.jsonl', 'run-a.teamlog.jsonl'));
    assert.ok(globMatches('run-?.jsonl', 'run-a.jsonl'));
    assert.ok(globMatches('*a', '*ba'));
    assert.ok(!globMatches('*.jsonl', 'a.json'));
    assert.ok(!globMatches('[ab].jsonl', 'a.jsonl'));
  });
});
