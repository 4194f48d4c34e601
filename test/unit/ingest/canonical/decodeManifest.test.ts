import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { RunManifest } from '../../../../src/core/runManifest';
import { decodeManifest } from '../../../../src/ingest/canonical/decodeManifest';

const validDir = join(__dirname, '../../../fixtures/canonical/valid');

function manifest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { format: 'credit-lens', version: '1.0', ...extra };
}

function decoded(value: unknown, folder = 'my-run'): RunManifest {
  const result = decodeManifest(value, folder);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

function errorOf(value: unknown): string {
  const result = decodeManifest(value, 'my-run');
  assert.ok(!result.ok, 'expected a decode error');
  return result.error;
}

describe('decodeManifest: names and versions', () => {
  test('decodeManifest(json, folder) defaults the name to the folder name', () => {
    assert.equal(decoded(manifest(), 'ablation-no-verifier').name, 'ablation-no-verifier');
    assert.equal(decoded(manifest({ name: null }), 'ablation-no-verifier').name, 'ablation-no-verifier');
  });

  test('decodeManifest(json, folder) prefers the name written in run.json', () => {
    assert.equal(decoded(manifest({ name: 'gsm8k pipeline' }), 'folder').name, 'gsm8k pipeline');
  });

  test('decodeManifest(json) keeps the version as written', () => {
    assert.equal(decoded(manifest({ version: '1.3' })).version, '1.3');
    assert.equal(decoded(manifest({ version: 1 })).version, '1');
  });

  test('decodeManifest(json) rejects major version 2, saying that major 1 is read', () => {
    assert.equal(
      errorOf(manifest({ version: '2.0' })),
      'version: unsupported format version 2.0: this Credit Lens reads major version 1; upgrade Credit Lens or convert the trace',
    );
  });

  test('decodeManifest(json) requires format "credit-lens"', () => {
    assert.equal(errorOf({ version: '1.0' }), 'format: is required');
    assert.equal(errorOf(manifest({ format: 'verl' })), 'format: expected "credit-lens", got "verl"');
  });

  test('decodeManifest(json) returns an error for a run.json that is not an object', () => {
    assert.equal(errorOf([]), 'expected an object, got array');
  });
});

describe('decodeManifest: mechanism and roster', () => {
  test('decodeManifest(json) reads each of the four mechanisms', () => {
    for (const mechanism of ['pipeline', 'vote', 'routed', 'debate'] as const)
      assert.equal(decoded(manifest({ mechanism })).mechanism, mechanism);
  });

  test('decodeManifest(json) rejects an unknown mechanism, listing the known ones', () => {
    assert.equal(
      errorOf(manifest({ mechanism: 'auction' })),
      'mechanism: "auction" is not one of pipeline, vote, routed, debate',
    );
  });

  test('decodeManifest(json) reads agents given as names and as objects', () => {
    assert.deepEqual(
      decoded(manifest({ agents: ['planner', { name: 'calc', kind: 'tool', trainable: false }] })).agents,
      [
        { name: 'planner', kind: 'llm' },
        { name: 'calc', kind: 'tool', trainable: false },
      ],
    );
  });

  test('decodeManifest(json) names the path of a bad agent kind', () => {
    assert.match(
      errorOf(manifest({ agents: ['a', { name: 'b', kind: 'robot' }] })),
      /^agents\[1\]\.kind: "robot" is not one of llm, /,
    );
  });

  test('decodeManifest(json) reads framework, algorithm and metadata, and ignores unknown fields', () => {
    const m = decoded(manifest({ framework: 'verl', algorithm: 'grpo', metadata: { lr: 1e-6 }, wandb: 'x' }));
    assert.equal(m.framework, 'verl');
    assert.equal(m.algorithm, 'grpo');
    assert.deepEqual(m.metadata, { lr: 1e-6 });
    assert.equal('wandb' in m, false);
  });
});

describe('decodeManifest: evaluator', () => {
  test('decodeManifest(json) reads a builtin evaluator with its options', () => {
    assert.deepEqual(
      decoded(manifest({ evaluator: { kind: 'builtin', name: 'gsm8k', options: { extract: 'last_number' } } }))
        .evaluator,
      {
        kind: 'builtin',
        name: 'gsm8k',
        options: { extract: 'last_number' },
      },
    );
  });

  test('decodeManifest(json) reads a command evaluator with its timeout', () => {
    assert.deepEqual(
      decoded(manifest({ evaluator: { kind: 'command', command: 'python score.py', timeoutMs: 5000 } })).evaluator,
      {
        kind: 'command',
        command: 'python score.py',
        timeoutMs: 5000,
      },
    );
  });

  test('decodeManifest(json) ignores the fields of the other evaluator kind', () => {
    assert.deepEqual(
      decoded(manifest({ evaluator: { kind: 'command', command: 'score', name: 7, options: 'x' } })).evaluator,
      { kind: 'command', command: 'score' },
    );
    assert.deepEqual(
      decoded(manifest({ evaluator: { kind: 'builtin', name: 'gsm8k', command: 7, timeoutMs: 'x' } })).evaluator,
      { kind: 'builtin', name: 'gsm8k' },
    );
  });

  test('decodeManifest(json) names the missing field of each evaluator kind', () => {
    assert.equal(errorOf(manifest({ evaluator: { kind: 'command' } })), 'evaluator.command: is required');
    assert.equal(errorOf(manifest({ evaluator: { kind: 'builtin' } })), 'evaluator.name: is required');
    assert.equal(errorOf(manifest({ evaluator: {} })), 'evaluator.kind: is required');
  });

  test('decodeManifest(json) rejects an unknown evaluator kind', () => {
    assert.equal(
      errorOf(manifest({ evaluator: { kind: 'http' } })),
      'evaluator.kind: "http" is not one of builtin, command, replay',
    );
  });
});

describe('decodeManifest: fixtures', () => {
  test('decodeManifest(json, folder) reads valid/routed/run.json, named after its folder', () => {
    const value: unknown = JSON.parse(readFileSync(join(validDir, 'routed/run.json'), 'utf8'));
    assert.deepEqual(decoded(value, 'routed'), {
      format: 'credit-lens',
      version: '1.0',
      name: 'routed',
      mechanism: 'routed',
      agents: [
        { name: 'router', kind: 'orchestrator', trainable: false },
        { name: 'math_expert', kind: 'llm', trainable: true },
        { name: 'code_expert', kind: 'llm', trainable: true },
        { name: 'chat_expert', kind: 'llm', trainable: true },
      ],
      evaluator: { kind: 'command', command: 'python scripts/score_fib.py', timeoutMs: 30000 },
      framework: 'openrlhf',
      algorithm: 'grpo',
      traceFormat: 'credit_lens_jsonl',
      advantage: 'openrlhf',
    });
  });
});
