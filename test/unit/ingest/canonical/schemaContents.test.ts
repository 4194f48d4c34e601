import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import type { AnySchemaObject } from 'ajv';
import type { AgentDecl } from '../../../../src/core/episode';
import type { Result } from '../../../../src/core/result';
import { decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';

// What the schemas say, checked against the decoders and the fixtures: descriptions everywhere,
// the same enums as the decoder, the same shared definitions in both files, every field exercised
// by a valid fixture, and no decoded field missing from the schema.

type SchemaNode = { readonly [key: string]: unknown };

const repoRoot = join(__dirname, '../../../..');
const validDir = join(repoRoot, 'test/fixtures/canonical/valid');
const episodeSchema = readJson(join(repoRoot, 'schema/episode.v1.schema.json')) as SchemaNode;
const runSchema = readJson(join(repoRoot, 'schema/run.v1.schema.json')) as SchemaNode;

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(node: SchemaNode, key: string): SchemaNode {
  const value = node[key];
  assert.ok(isNode(value), `schema has no object at ${key}`);
  return value;
}

function resolve(root: SchemaNode, node: SchemaNode): SchemaNode {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  assert.match(ref, /^#\/\$defs\/\w+$/, 'only local $defs references are used');
  return resolve(root, child(child(root, '$defs'), ref.slice('#/$defs/'.length)));
}

/** The node and every alternative that can add properties (anyOf branches, then / else). */
function branches(root: SchemaNode, node: SchemaNode): SchemaNode[] {
  const resolved = resolve(root, node);
  const alternatives = [
    ...(Array.isArray(resolved['anyOf']) ? resolved['anyOf'] : []),
    resolved['then'],
    resolved['else'],
  ];
  return [resolved, ...alternatives.filter(isNode).flatMap((n) => branches(root, n))];
}

/** Every property path the schema defines (`messages[].tokens`), mapped to whether it is free-form. */
function schemaPaths(
  root: SchemaNode,
  node: SchemaNode = root,
  path = '',
  out = new Map<string, boolean>(),
): Map<string, boolean> {
  for (const branch of branches(root, node)) {
    for (const [key, sub] of Object.entries(isNode(branch['properties']) ? branch['properties'] : {})) {
      if (!isNode(sub)) continue;
      const subPath = path ? `${path}.${key}` : key;
      const structured = branches(root, sub).some((b) => isNode(b['properties']) || isNode(b['items']));
      out.set(subPath, !structured);
      schemaPaths(root, sub, subPath, out);
    }
    if (isNode(branch['items'])) schemaPaths(root, branch['items'], `${path}[]`, out);
  }
  return out;
}

/** Every key path set (not null) in a JSON value; free-form paths are not descended into. */
function valuePaths(value: unknown, freeForm: ReadonlySet<string>, path = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) valuePaths(item, freeForm, `${path}[]`, out);
  } else if (isNode(value) && !freeForm.has(path)) {
    for (const [key, sub] of Object.entries(value)) {
      if (sub === null || sub === undefined) continue;
      const subPath = path ? `${path}.${key}` : key;
      out.add(subPath);
      valuePaths(sub, freeForm, subPath, out);
    }
  }
  return out;
}

function freeFormPaths(paths: ReadonlyMap<string, boolean>): Set<string> {
  return new Set([...paths].filter(([, free]) => free).map(([path]) => path));
}

/** Every property schema in a schema document, with its location. */
function propertySchemas(node: unknown, path = ''): { path: string; schema: unknown }[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => propertySchemas(n, `${path}/${i}`));
  if (!isNode(node)) return [];
  const own = isNode(node['properties'])
    ? Object.entries(node['properties']).map(([k, s]) => ({ path: `${path}/properties/${k}`, schema: s }))
    : [];
  return [...own, ...Object.entries(node).flatMap(([k, n]) => propertySchemas(n, `${path}/${k}`))];
}

function traceLines(): { value: unknown; roster: readonly AgentDecl[] }[] {
  const files = [
    join(validDir, 'pipeline.jsonl'),
    join(validDir, 'minimal.jsonl'),
    join(validDir, 'routed/routed.jsonl'),
  ];
  return files.flatMap((file) => {
    const manifest = decodeManifest(readJson(join(dirname(file), 'run.json')), basename(dirname(file)));
    const roster = manifest.ok ? (manifest.value.agents ?? []) : [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => ({ value: JSON.parse(l) as unknown, roster }));
  });
}

function manifests(): unknown[] {
  return [join(validDir, 'run.json'), join(validDir, 'routed/run.json')].map(readJson);
}

/** The allowed values the decoder lists when it rejects an unknown one. */
function allowedValues(result: Result<unknown>): string[] {
  assert.ok(!result.ok);
  const match = /is not one of (.+)$/.exec(result.error);
  assert.ok(match?.[1] !== undefined, result.error);
  return match[1].split(', ');
}

function enumAt(node: SchemaNode, ...keys: string[]): unknown[] {
  const target = keys.reduce((n, key) => child(n, key), node);
  const values = target['enum'];
  assert.ok(Array.isArray(values));
  return values;
}

describe('schema documents', () => {
  test('both schemas compile under ajv strict mode without warnings', () => {
    const warnings: unknown[] = [];
    const logger = {
      log: () => undefined,
      warn: (...args: unknown[]) => warnings.push(args),
      error: (...args: unknown[]) => warnings.push(args),
    };
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, logger });
    ajv.compile(episodeSchema as AnySchemaObject);
    ajv.compile(runSchema as AnySchemaObject);
    assert.deepEqual(warnings, []);
  });

  test('both schemas declare draft 2020-12 and their credit-lens.dev $id', () => {
    assert.equal(episodeSchema['$schema'], 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(runSchema['$schema'], 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(episodeSchema['$id'], 'https://credit-lens.dev/schema/episode.v1.json');
    assert.equal(runSchema['$id'], 'https://credit-lens.dev/schema/run.v1.json');
  });

  for (const [name, schema] of [
    ['episode', episodeSchema],
    ['run', runSchema],
  ] as const) {
    test(`the ${name} schema gives every property a description`, () => {
      const missing = propertySchemas(schema).filter(
        (p) => !isNode(p.schema) || typeof p.schema['description'] !== 'string',
      );
      assert.deepEqual(
        missing.map((p) => p.path),
        [],
      );
    });

    test(`the ${name} schema allows unknown top-level fields (forward-compatible minors)`, () => {
      assert.equal(schema['additionalProperties'], true);
    });
  }

  for (const def of ['agent', 'agentKind', 'id', 'formatVersion']) {
    test(`the run schema's $defs.${def} is identical to the episode schema's`, () => {
      assert.deepEqual(child(child(runSchema, '$defs'), def), child(child(episodeSchema, '$defs'), def));
    });
  }
});

describe('schema enums match the decoders', () => {
  const message = { agent: 'a', content: '' };

  test('episode schema agent kinds equal the kinds decodeEpisode(line) accepts', () => {
    const result = decodeEpisode({ id: 'e', messages: [], agents: [{ name: 'a', kind: '?' }] });
    assert.deepEqual(enumAt(episodeSchema, '$defs', 'agentKind'), allowedValues(result));
  });

  test('episode schema interventions equal the interventions decodeEpisode(line) accepts', () => {
    const result = decodeEpisode({
      id: 'e',
      messages: [message],
      counterfactuals: [{ intervention: '?', agents: ['a'], reward: 0 }],
    });
    assert.deepEqual(
      enumAt(episodeSchema, '$defs', 'counterfactual', 'properties', 'intervention'),
      allowedValues(result),
    );
  });

  test('run schema mechanisms equal the mechanisms decodeManifest(json) accepts', () => {
    const result = decodeManifest({ format: 'credit-lens', version: '1.0', mechanism: '?' }, 'f');
    const mechanism = child(child(runSchema, 'properties'), 'mechanism');
    const options = mechanism['anyOf'];
    assert.ok(Array.isArray(options) && isNode(options[0]));
    assert.deepEqual(options[0]['enum'], allowedValues(result));
  });

  test('run schema evaluator kinds equal the kinds decodeManifest(json) accepts', () => {
    const result = decodeManifest({ format: 'credit-lens', version: '1.0', evaluator: { kind: '?' } }, 'f');
    assert.deepEqual(enumAt(runSchema, 'properties', 'evaluator', 'properties', 'kind'), allowedValues(result));
  });
});

describe('fixture coverage and decoded fields', () => {
  const episodePaths = schemaPaths(episodeSchema);
  const runPaths = schemaPaths(runSchema);

  test('the valid trace fixtures set every property the episode schema defines', () => {
    const seen = new Set(traceLines().flatMap(({ value }) => [...valuePaths(value, freeFormPaths(episodePaths))]));
    assert.deepEqual(
      [...episodePaths.keys()].filter((p) => !seen.has(p)),
      [],
    );
  });

  test('the valid run.json fixtures set every property the run schema defines', () => {
    const seen = new Set(manifests().flatMap((value) => [...valuePaths(value, freeFormPaths(runPaths))]));
    assert.deepEqual(
      [...runPaths.keys()].filter((p) => !seen.has(p)),
      [],
    );
  });

  // Unknown input fields may pass through (decodeEpisode normalises the parsed value in place), but
  // the decoder must not produce a field that neither the schema nor the input has.
  test('decodeEpisode(line) produces no field that is neither in the episode schema nor in the line', () => {
    const invented = traceLines().flatMap(({ value, roster }) => {
      const written = valuePaths(value, freeFormPaths(episodePaths));
      const result = decodeEpisode(structuredClone(value), roster);
      assert.ok(result.ok);
      return [...valuePaths(result.value, freeFormPaths(episodePaths))].filter(
        (p) => !episodePaths.has(p) && !written.has(p),
      );
    });
    assert.deepEqual(invented, []);
  });

  test('decodeManifest(json) produces no field that is neither in the run schema nor in run.json', () => {
    const invented = manifests().flatMap((value) => {
      const written = valuePaths(value, freeFormPaths(runPaths));
      const result = decodeManifest(structuredClone(value), 'folder');
      assert.ok(result.ok);
      return [...valuePaths(result.value, freeFormPaths(runPaths))].filter((p) => !runPaths.has(p) && !written.has(p));
    });
    assert.deepEqual(invented, []);
  });

  test('the valid fixtures use all six interventions', () => {
    const used = new Set(
      traceLines().flatMap(({ value }) => {
        const cfs = isNode(value) && Array.isArray(value['counterfactuals']) ? value['counterfactuals'] : [];
        return cfs.filter(isNode).map((cf) => cf['intervention']);
      }),
    );
    assert.deepEqual(
      [...used].sort(),
      [...enumAt(episodeSchema, '$defs', 'counterfactual', 'properties', 'intervention')].sort(),
    );
  });

  test('the fixture folder lists only the files these tests read', () => {
    assert.deepEqual(readdirSync(validDir).sort(), ['minimal.jsonl', 'pipeline.jsonl', 'routed', 'run.json']);
  });
});
