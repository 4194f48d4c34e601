import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import type { AnySchemaObject } from 'ajv';
import { decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';

// docs/trace-format.md is the user-facing spec: its examples must pass the schema and the decoder,
// its field tables must name every schema property, and the errors it quotes must be real ones.

const repoRoot = join(__dirname, '../../../..');
const doc = readFileSync(join(repoRoot, 'docs/trace-format.md'), 'utf8');
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
const episodeJson = readJson('schema/episode.v1.schema.json');
const runJson = readJson('schema/run.v1.schema.json');
const validators = { episode: ajv.compile(episodeJson), run: ajv.compile(runJson) };

function readJson(path: string): AnySchemaObject {
  return JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as AnySchemaObject;
}

/** The JSON blocks preceded by `<!-- check: episode -->` or `<!-- check: run -->`. */
function checkedExamples(): { kind: 'episode' | 'run'; json: string }[] {
  const pattern = /<!-- check: (episode|run) -->\n```json\n([\s\S]*?)\n```/g;
  return [...doc.matchAll(pattern)].map((m) => ({ kind: m[1] === 'run' ? 'run' : 'episode', json: m[2] ?? '' }));
}

/** Every property name defined anywhere in a schema document. */
function propertyNames(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => propertyNames(n, out));
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return out;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null)
      Object.keys(value).forEach((k) => out.add(k));
    propertyNames(value, out);
  }
  return out;
}

function invalidFixtureErrors(): Set<string> {
  const dir = join(repoRoot, 'test/fixtures/canonical/invalid');
  return new Set(
    readdirSync(dir).map((file) => {
      const value: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      const result = file.startsWith('run-') ? decodeManifest(value, 'folder') : decodeEpisode(value);
      return result.ok ? '' : result.error;
    }),
  );
}

describe('docs/trace-format.md', () => {
  const examples = checkedExamples();

  test('docs/trace-format.md marks its worked examples for checking', () => {
    assert.ok(examples.filter((e) => e.kind === 'episode').length >= 4);
    assert.ok(examples.filter((e) => e.kind === 'run').length >= 2);
  });

  examples.forEach((example, i) => {
    test(`docs/trace-format.md example ${i + 1} (${example.kind}) passes the ${example.kind} schema and its decoder`, () => {
      const value: unknown = JSON.parse(example.json);
      const validate = validators[example.kind];
      assert.equal(validate(value) ? '' : ajv.errorsText(validate.errors), '');
      const result =
        example.kind === 'run'
          ? decodeManifest(structuredClone(value), 'experiments')
          : decodeEpisode(structuredClone(value));
      assert.ok(result.ok, result.ok ? '' : result.error);
    });
  });

  test('docs/trace-format.md has a table row for every property of both schemas', () => {
    const names = [...propertyNames(episodeJson), ...propertyNames(runJson)];
    assert.deepEqual(
      [...new Set(names)].filter((name) => !doc.includes(`| \`${name}\` |`)),
      [],
    );
  });

  test('docs/trace-format.md quotes decoder errors verbatim', () => {
    const quoted = [...doc.matchAll(/invalid (?:episode|run manifest): ([^\n`]+?)(?:`|\n)/g)].map((m) =>
      (m[1] ?? '').replace(/\s+/g, ' '),
    );
    assert.ok(quoted.length >= 5);
    const real = invalidFixtureErrors();
    assert.deepEqual(
      quoted.filter((q) => !real.has(q)),
      [],
    );
  });

  test('docs/trace-format.md points at schema files that exist', () => {
    for (const [, path] of doc.matchAll(/\]\(\.\.\/(schema\/[\w.]+\.json)\)/g))
      assert.ok(existsSync(join(repoRoot, path ?? '')), path);
    assert.match(doc, /schema\/episode\.v1\.schema\.json/);
    assert.match(doc, /schema\/run\.v1\.schema\.json/);
  });
});
