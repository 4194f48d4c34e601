import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import type { AgentDecl } from '../../../../src/core/episode';
import type { Result } from '../../../../src/core/result';
import { decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';

// The JSON Schemas in schema/ and the hand-written decoders must agree: every valid fixture passes
// both, and every invalid fixture is rejected by both at the same JSON path, except for the rules
// JSON Schema cannot express (listed in `readerOnlyCases`), which only the decoder checks.

const repoRoot = join(__dirname, '../../../..');
const fixtures = join(repoRoot, 'test/fixtures/canonical');
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
const episodeSchema = ajv.compile(readJson(join(repoRoot, 'schema/episode.v1.schema.json')) as AnySchemaObject);
const runSchema = ajv.compile(readJson(join(repoRoot, 'schema/run.v1.schema.json')) as AnySchemaObject);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function listFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

/** The roster of the run.json next to a trace file, as the indexer would pass it. */
function rosterFor(traceFile: string): readonly AgentDecl[] {
  const manifest = decodeManifest(readJson(join(dirname(traceFile), 'run.json')), basename(dirname(traceFile)));
  assert.ok(manifest.ok, `run.json next to ${traceFile} must decode`);
  return manifest.value.agents ?? [];
}

function schemaErrors(validate: ValidateFunction, value: unknown): string {
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

/** The JSON pointers the schema complains about; a missing property is reported at its own path. */
function errorPointers(errors: readonly ErrorObject[] | null | undefined): Set<string> {
  return new Set(
    (errors ?? []).map((e) =>
      e.keyword === 'required' ? `${e.instancePath}/${String(e.params['missingProperty'])}` : e.instancePath,
    ),
  );
}

/** `messages[1].agent` -> `/messages/1/agent` (the decoder's path as a JSON pointer). */
function pointerOf(path: string): string {
  return path === ''
    ? ''
    : `/${path
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .join('/')}`;
}

// decodeEpisode normalises the parsed value in place, so the decoders get their own copy and the
// schema always sees the value as written.
function decodeFixture(file: string, value: unknown): Result<unknown> {
  return file.startsWith('run-')
    ? decodeManifest(structuredClone(value), 'folder')
    : decodeEpisode(structuredClone(value));
}

function errorOf(result: Result<unknown>): string {
  assert.ok(!result.ok, 'expected a decode error');
  return result.error;
}

describe('valid fixtures', () => {
  const traceFiles = listFiles(join(fixtures, 'valid'), '.jsonl');
  const manifests = listFiles(join(fixtures, 'valid'), 'run.json');

  test('test/fixtures/canonical/valid holds trace files and manifests', () => {
    assert.ok(traceFiles.length >= 3);
    assert.ok(manifests.length >= 2);
  });

  for (const file of traceFiles) {
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    lines.forEach((text, i) => {
      const where = `${file.slice(fixtures.length + 1)}:${i + 1}`;
      test(`episode schema and decodeEpisode(line) both accept ${where}`, () => {
        const value: unknown = JSON.parse(text);
        assert.equal(schemaErrors(episodeSchema, value), '');
        const decoded = decodeEpisode(structuredClone(value), rosterFor(file));
        assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
      });
    });
  }

  for (const file of manifests) {
    test(`run schema and decodeManifest(json) both accept ${file.slice(fixtures.length + 1)}`, () => {
      const value = readJson(file);
      assert.equal(schemaErrors(runSchema, value), '');
      const decoded = decodeManifest(structuredClone(value), basename(dirname(file)));
      assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
    });
  }
});

interface InvalidCase {
  /** File in test/fixtures/canonical/invalid; `run-*` files are manifests, the others episode lines. */
  readonly file: string;
  /** The JSON path the decoder names ('' = the value itself). */
  readonly path: string;
  readonly problem: string;
}

const bothRejectCases: readonly InvalidCase[] = [
  { file: 'not-an-object.json', path: '', problem: 'expected an object, got array' },
  { file: 'missing-id.json', path: 'id', problem: 'is required' },
  { file: 'empty-id.json', path: 'id', problem: 'expected a non-empty string or number, got string' },
  { file: 'messages-missing.json', path: 'messages', problem: 'is required' },
  { file: 'messages-not-array.json', path: 'messages', problem: 'expected an array, got object' },
  {
    file: 'message-agent-boolean.json',
    path: 'messages[1].agent',
    problem: 'expected a non-empty string or number, got boolean',
  },
  { file: 'message-content-missing.json', path: 'messages[0].content', problem: 'is required' },
  { file: 'message-turn-fraction.json', path: 'messages[1].turn', problem: 'expected an integer, got 1.5' },
  {
    file: 'message-logprob-string.json',
    path: 'messages[1].logprobs[1]',
    problem: 'expected a finite number, got string',
  },
  { file: 'agent-number.json', path: 'agents[0]', problem: 'expected an object, got number' },
  {
    file: 'agent-kind-unknown.json',
    path: 'agents[1].kind',
    problem: '"robot" is not one of llm, tool, env, human, user_sim, orchestrator, system, judge',
  },
  { file: 'agent-trainable-string.json', path: 'agents[0].trainable', problem: 'expected a boolean, got string' },
  { file: 'step-fraction.json', path: 'step', problem: 'expected an integer, got 1.5' },
  { file: 'reward-string.json', path: 'reward', problem: 'expected a finite number, got string' },
  { file: 'agent-rewards-string.json', path: 'agentRewards.solver', problem: 'expected a finite number, got string' },
  { file: 'final-answer-missing.json', path: 'final.answer', problem: 'is required' },
  { file: 'metadata-array.json', path: 'metadata', problem: 'expected an object, got array' },
  { file: 'version-null.json', path: 'version', problem: 'format version must be a string like "1.0", got null' },
  { file: 'version-malformed.json', path: 'version', problem: 'format version "v1" is not of the form major.minor' },
  {
    file: 'version-major-2.json',
    path: 'version',
    problem:
      'unsupported format version 2.0: this Credit Lens reads major version 1; upgrade Credit Lens or convert the trace',
  },
  { file: 'routing-probs-missing.json', path: 'routing.probs', problem: 'is required (probabilities of all experts)' },
  {
    file: 'routing-probability-out-of-range.json',
    path: 'routing.probs.planner',
    problem: 'probability -0.2 is outside [0, 1]',
  },
  {
    file: 'counterfactual-intervention-unknown.json',
    path: 'counterfactuals[0].intervention',
    problem: '"drop" is not one of remove, empty, placeholder, resample_self, resample_ref, replace_text',
  },
  {
    file: 'counterfactual-agents-empty.json',
    path: 'counterfactuals[0].agents',
    problem: 'must name at least one agent',
  },
  { file: 'counterfactual-reward-missing.json', path: 'counterfactuals[0].reward', problem: 'is required' },
  {
    file: 'coalition-agents-missing.json',
    path: 'coalitions[1].agents',
    problem: 'is required ([] is the empty coalition)',
  },
  { file: 'label-message-negative.json', path: 'labels[0].message', problem: 'index -1 is outside messages[0..1]' },
  { file: 'run-format-missing.json', path: 'format', problem: 'is required' },
  { file: 'run-format-wrong.json', path: 'format', problem: 'expected "credit-lens", got "credit_lens"' },
  { file: 'run-version-missing.json', path: 'version', problem: 'is required (a string like "1.0")' },
  {
    file: 'run-version-major-2.json',
    path: 'version',
    problem:
      'unsupported format version 2.0: this Credit Lens reads major version 1; upgrade Credit Lens or convert the trace',
  },
  {
    file: 'run-mechanism-unknown.json',
    path: 'mechanism',
    problem: '"auction" is not one of pipeline, vote, routed, debate',
  },
  {
    file: 'run-agent-kind-unknown.json',
    path: 'agents[1].kind',
    problem: '"robot" is not one of llm, tool, env, human, user_sim, orchestrator, system, judge',
  },
  {
    file: 'run-evaluator-kind-unknown.json',
    path: 'evaluator.kind',
    problem: '"http" is not one of builtin, command, replay',
  },
  { file: 'run-evaluator-command-missing.json', path: 'evaluator.command', problem: 'is required' },
  { file: 'run-evaluator-timeout-fraction.json', path: 'evaluator.timeoutMs', problem: 'expected an integer, got 1.5' },
  { file: 'run-evaluator-name-missing.json', path: 'evaluator.name', problem: 'is required' },
  { file: 'run-name-number.json', path: 'name', problem: 'expected a string, got number' },
];

// Rules JSON Schema cannot express (they relate two values of the same line), so only the decoder
// is asserted: probabilities summing to 1, the selected expert present in probs, token arrays of
// equal length, and a label's message index below the number of messages.
const readerOnlyCases: readonly InvalidCase[] = [
  { file: 'routing-probs-sum.json', path: 'routing.probs', problem: 'probabilities sum to 0.9, expected 1' },
  {
    file: 'routing-selected-unknown.json',
    path: 'routing.selected',
    problem: '"verifier" has no probability in routing.probs',
  },
  {
    file: 'message-tokens-misaligned.json',
    path: 'messages[1]',
    problem: 'tokens, logprobs and attribution must have the same length, got 2 / 2 / 1',
  },
  { file: 'label-message-out-of-range.json', path: 'labels[0].message', problem: 'index 2 is outside messages[0..1]' },
];

function expectedMessage(c: InvalidCase): string {
  return c.path ? `${c.path}: ${c.problem}` : c.problem;
}

describe('invalid fixtures', () => {
  test('every file in test/fixtures/canonical/invalid has exactly one expectation', () => {
    const listed = [...bothRejectCases, ...readerOnlyCases].map((c) => c.file).sort();
    assert.deepEqual(listed, readdirSync(join(fixtures, 'invalid')).sort());
  });

  for (const c of bothRejectCases) {
    const decoder = c.file.startsWith('run-') ? 'decodeManifest(json)' : 'decodeEpisode(line)';
    const where = c.path || 'the root';
    test(`${decoder} and the schema both reject invalid/${c.file} at ${where}`, () => {
      const value = readJson(join(fixtures, 'invalid', c.file));
      assert.equal(errorOf(decodeFixture(c.file, value)), expectedMessage(c));
      const validate = c.file.startsWith('run-') ? runSchema : episodeSchema;
      assert.equal(validate(value), false, 'the schema must reject it');
      assert.ok(
        errorPointers(validate.errors).has(pointerOf(c.path)),
        `schema errors: ${ajv.errorsText(validate.errors)}`,
      );
    });
  }

  for (const c of readerOnlyCases) {
    test(`decodeEpisode(line) rejects invalid/${c.file} at ${c.path} (a rule JSON Schema cannot express)`, () => {
      const value = readJson(join(fixtures, 'invalid', c.file));
      assert.equal(errorOf(decodeFixture(c.file, value)), expectedMessage(c));
    });
  }
});

describe('format versions', () => {
  const line = (version?: unknown): Record<string, unknown> => ({
    id: 'v',
    messages: [{ agent: 'solver', content: '42' }],
    ...(version === undefined ? {} : { version }),
  });
  const manifest = (version?: unknown): Record<string, unknown> => ({
    format: 'credit-lens',
    name: 'run',
    ...(version === undefined ? {} : { version }),
  });

  for (const version of ['1', '1.0', '1.3', '1.10', '1.12', 1, 1.1, 1.5, 1.99]) {
    test(`decodeEpisode(line) and the episode schema accept version ${JSON.stringify(version)}`, () => {
      assert.ok(decodeEpisode(line(version)).ok);
      assert.equal(schemaErrors(episodeSchema, line(version)), '');
    });
    test(`decodeManifest(json) and the run schema accept version ${JSON.stringify(version)}`, () => {
      assert.ok(decodeManifest(manifest(version), 'folder').ok);
      assert.equal(schemaErrors(runSchema, manifest(version)), '');
    });
  }

  for (const version of ['2.0', '0.9', '2', 2, '1.x', '1.0.0', ' 1.0', '', '01.0', '1.05', '1.00', 1.05, 1.001, 0.5]) {
    test(`decodeEpisode(line) and the episode schema reject version ${JSON.stringify(version)}`, () => {
      assert.match(errorOf(decodeEpisode(line(version))), /^version: /);
      assert.equal(episodeSchema(line(version)), false);
    });
    test(`decodeManifest(json) and the run schema reject version ${JSON.stringify(version)}`, () => {
      assert.match(errorOf(decodeManifest(manifest(version), 'folder')), /^version: /);
      assert.equal(runSchema(manifest(version)), false);
    });
  }

  test('decodeEpisode(line) says that major version 1 is supported when a line has version "2.0"', () => {
    assert.match(
      errorOf(decodeEpisode(line('2.0'))),
      /^version: unsupported format version 2\.0: this Credit Lens reads major version 1;/,
    );
  });

  test('decodeManifest(json) says that major version 1 is supported when run.json has version "2.0"', () => {
    assert.match(
      errorOf(decodeManifest(manifest('2.0'), 'f')),
      /^version: unsupported format version 2\.0: this Credit Lens reads major version 1;/,
    );
  });

  test('decodeEpisode(line) and the episode schema accept a line without version', () => {
    assert.ok(decodeEpisode(line()).ok);
    assert.equal(schemaErrors(episodeSchema, line()), '');
  });

  test('decodeManifest(json) and the run schema both require version in run.json', () => {
    assert.match(errorOf(decodeManifest(manifest(), 'f')), /^version: /);
    assert.equal(runSchema(manifest()), false);
  });
});

describe('null as absent', () => {
  const optionalEpisodeFields = [
    'version',
    'step',
    'group',
    'sample',
    'task',
    'split',
    'prompt',
    'agents',
    'final',
    'reward',
    'agentRewards',
    'advantages',
    'routing',
    'counterfactuals',
    'coalitions',
    'groundTruth',
    'labels',
    'metadata',
  ];
  for (const field of optionalEpisodeFields) {
    const expectOk = field !== 'version'; // a null version is checked, and rejected, by both
    test(`decodeEpisode(line) and the episode schema both ${expectOk ? 'accept' : 'reject'} "${field}": null`, () => {
      const value = { id: 'n', messages: [], [field]: null };
      assert.equal(decodeEpisode(structuredClone(value)).ok, expectOk);
      assert.equal(episodeSchema(value), expectOk);
    });
  }

  for (const field of ['name', 'mechanism', 'agents', 'evaluator', 'framework', 'algorithm', 'metadata']) {
    test(`decodeManifest(json) and the run schema both accept "${field}": null`, () => {
      const value = { format: 'credit-lens', version: '1.0', [field]: null };
      assert.ok(decodeManifest(structuredClone(value), 'f').ok);
      assert.equal(schemaErrors(runSchema, value), '');
    });
  }

  for (const field of ['id', 'messages']) {
    test(`decodeEpisode(line) and the episode schema both reject a null required "${field}"`, () => {
      const value = { id: 'n', messages: [], [field]: null };
      assert.match(errorOf(decodeEpisode(structuredClone(value))), new RegExp(`^${field}: `));
      assert.equal(episodeSchema(value), false);
    });
  }
});
