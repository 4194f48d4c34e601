import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import { declaredSplit, splitKind } from '../../../../../src/core/split';
import { decodeManifest } from '../../../../../src/ingest/canonical/decodeManifest';
import { splitFromUri, verlSplit } from '../../../../../src/ingest/importers/formats/common/rlVerlRecord';
import { verlMapper } from '../../../../../src/ingest/importers/formats/verl/verl';

// Fixtures written by generate.py, a transcription of verl's _dump_generations (see its README).
const generated = join(__dirname, '../../../../fixtures/importers/verl/generated');

function mapFolder(relative: string): Episode[] {
  return readdirSync(join(generated, relative))
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((file) => {
      const uri = `${relative}/${file}`;
      return readFileSync(join(generated, uri), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .flatMap((line, i) => {
          const result = verlMapper.toEpisodes(JSON.parse(line) as unknown, {
            uri,
            fileName: basename(uri),
            index: i,
            line: i + 1,
            roster: [],
          });
          assert.ok(result.ok, result.ok ? '' : result.error);
          return result.value;
        });
    });
}

describe('verl dumps written by verl (generated fixtures)', () => {
  const train = mapFolder('search-r1-retrieval-qwen7b/rollout');
  const validation = mapFolder('search-r1-retrieval-qwen7b/validation');

  test('a *-retrieval-* run folder with rollout/ is training; validation/ beside it is validation', () => {
    assert.equal(train.length, 80);
    assert.ok(train.every((e) => e.split === 'train'));
    assert.equal(validation.length, 12);
    assert.ok(validation.every((e) => e.split === 'validation' && e.group?.startsWith('val-')));
  });

  test('rebuilds GRPO groups of 4 from the prompt although the batch was reordered', () => {
    const sizes = new Map<string, number>();
    for (const e of train) sizes.set(e.group ?? '', (sizes.get(e.group ?? '') ?? 0) + 1);
    assert.equal(sizes.size, 20);
    assert.ok([...sizes.values()].every((n) => n === 4));
  });

  test('splits a Qwen-template multi-turn output with glued role words into policy, tool and policy turns', () => {
    const multi = train.find((e) => e.messages.length > 1);
    assert.ok(multi);
    assert.deepEqual(
      multi.messages.map((m) => [m.agent, m.role, m.channel]),
      [
        ['policy', 'assistant', undefined],
        ['tool', 'tool', 'tool_result'],
        ['policy', 'assistant', undefined],
      ],
    );
    assert.ok(multi.messages[0]?.content.endsWith('</tool_call>'));
    assert.match(multi.messages[1]?.content ?? '', /^Doc 1: .* \(retrieved\)$/);
    assert.match(multi.messages[2]?.content ?? '', /^<think>/);
    assert.deepEqual(
      multi.agents.map((a) => a.name),
      ['policy', 'tool'],
    );
    assert.ok(train.some((e) => e.messages.length === 1 && e.messages[0]?.content.startsWith('<answer>')));
  });

  test('DAPO overlong buffer: the trained reward is score + overlong_reward (training) or reward (validation)', () => {
    const rollout = mapFolder('dapo-overlong/rollout_data');
    assert.deepEqual(
      rollout.map((e) => e.reward),
      [-2, 0.25, 1, -1],
    );
    assert.equal(rollout[0]?.metadata?.['rewardFrom'], 'score+overlong_reward');
    assert.equal((rollout[0]?.metadata?.['metrics'] as Record<string, number>)['verifierScore'], -1);
    assert.equal(rollout[2]?.metadata?.['rewardFrom'], undefined);
    const val = mapFolder('dapo-overlong/val_data');
    assert.deepEqual(
      val.map((e) => [e.split, e.reward]),
      [
        ['validation', 0.25],
        ['validation', -1],
      ],
    );
  });
});

describe('verl split from the dump folder', () => {
  test('splitFromUri(uri) looks only at the folder the file sits in', () => {
    assert.equal(splitFromUri('search-r1-retrieval-qwen7b/rollout/1.jsonl'), 'train');
    assert.equal(splitFromUri('runs/eval-heavy/rollout_data/3.jsonl'), 'train');
    for (const folder of ['validation', 'val', 'val_data', 'validation_data', 'val_generations', 'eval'])
      assert.equal(splitFromUri(`r/${folder}/0.jsonl`), 'validation', folder);
    assert.equal(splitFromUri('validation/dumps-x/1.jsonl'), undefined);
    assert.equal(splitFromUri('1.jsonl'), undefined);
  });

  test('run.json "splits" overrides the folder name; the longest declaration wins', () => {
    const manifest = decodeManifest(
      { format: 'credit-lens', version: '1.0', splits: { validation: ['probe_dumps/'], train: ['probe_dumps/train'] } },
      'r',
    );
    assert.ok(manifest.ok, manifest.ok ? '' : manifest.error);
    const splits = manifest.value.splits;
    assert.equal(verlSplit({ uri: 'run/probe_dumps/0.jsonl', ...(splits ? { splits } : {}) }), 'validation');
    assert.equal(declaredSplit('run/probe_dumps/train/0.jsonl', splits), 'train');
    assert.equal(verlSplit({ uri: 'run/rollout/0.jsonl', ...(splits ? { splits } : {}) }), 'train');
    const bad = decodeManifest({ format: 'credit-lens', version: '1.0', splits: { dev: ['x/'] } }, 'r');
    assert.ok(!bad.ok && /splits\.dev/.test(bad.error));
  });

  test('splitKind(split) counts validation names as validation and anything else, or none, as training', () => {
    assert.deepEqual(
      ['val', 'Validation', 'eval', 'test', 'train', 'rl', undefined].map((s) => splitKind(s)),
      ['validation', 'validation', 'validation', 'validation', 'train', 'train', 'train'],
    );
  });
});
