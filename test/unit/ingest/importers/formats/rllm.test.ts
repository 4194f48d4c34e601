import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { rllmMapper } from '../../../../../src/ingest/importers/formats/rllm/rllm';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const fixtures = join(__dirname, '../../../../fixtures/importers/rllm');
const trainUri = 'train/episodes/train_step_10_epoch_0/episode_hashbba52bbd_idgsm8k-17_1.json';
const evalUri = 'eval/episodes/episode_000000_gsm8k-17.json';

function context(uri: string): RecordContext {
  return { uri, fileName: uri.slice(uri.lastIndexOf('/') + 1), index: 0, line: 1, roster: [] };
}

function mapped(uri: string): Episode[] {
  const result = rllmMapper.toEpisodes(JSON.parse(readFileSync(join(fixtures, uri), 'utf8')), context(uri));
  assert.ok(result.ok, result.ok ? '' : result.error);
  for (const e of result.value) assert.ok(decodeEpisode(JSON.parse(JSON.stringify(e))).ok);
  return result.value;
}

describe('rllmMapper', () => {
  test('a training episode: step and epoch from the fields and folder, group from task_hash, per-agent rewards kept', () => {
    const [e] = mapped(trainUri);
    assert.ok(e);
    assert.equal(e.id, 'train/episodes/train_step_10_epoch_0/episode_hashbba52bbd_idgsm8k-17_1');
    assert.deepEqual([e.step, e.group, e.sample, e.task, e.split], [10, 'bba52bbd', 1, 'gsm8k-17', 'train']);
    assert.equal(e.reward, 0);
    assert.deepEqual(e.agentRewards, { solver: 0.5, judge: 0 });
    assert.equal(e.groundTruth, '41');
    assert.deepEqual(
      e.agents.map((a) => [a.name, a.kind]),
      [
        ['solver', 'llm'],
        ['judge', 'llm'],
        ['environment', 'env'],
      ],
    );
    assert.deepEqual(
      e.messages.map((m) => [m.agent, m.channel]),
      [
        ['solver', 'speech'],
        ['solver', 'speech'],
        ['environment', 'observation'],
        ['judge', 'speech'],
      ],
    );
    assert.match(e.messages[0]?.content ?? '', /\\boxed\{51\}/);
    assert.equal(e.metadata?.['episodeId'], 'gsm8k-17:1');
  });

  test('an eval store episode (model_dump) maps; meta.json and batch_summary.json are side files, not errors', () => {
    const [e] = mapped(evalUri);
    assert.deepEqual([e?.split, e?.reward, e?.metadata?.['evalIndex']], ['eval', 1, 0]);
    assert.deepEqual(e?.agentRewards, { solver: 1, judge: 1 });
    assert.deepEqual(mapped('eval/meta.json'), []);
    assert.deepEqual(mapped('train/episodes/train_step_10_epoch_0/batch_summary.json'), []);
    const root = JSON.parse(readFileSync(join(fixtures, 'eval/meta.json'), 'utf8')) as unknown;
    assert.ok(rllmMapper.detect({ fileName: 'meta.json', container: 'json', records: [root], root }) >= 0.5);
  });

  test('bad input is an error naming the field, never a crash', () => {
    const bad = (record: unknown): string => {
      const r = rllmMapper.toEpisodes(record, context('x/episode_hashab_id1.json'));
      assert.ok(!r.ok);
      return r.error;
    };
    assert.match(bad(null), /expected an rLLM episode/);
    assert.match(bad({ training_step: 1 }), /missing "trajectories"/);
    assert.match(bad({ trajectories: [3] }), /trajectories\[0\]: expected a trajectory object/);
    assert.match(bad({ trajectories: [{ name: 'a', steps: 'x' }] }), /trajectories\[0\]\.steps: expected a list/);
    const odd = rllmMapper.toEpisodes(
      { trajectories: [{ steps: [null, { action: { tool: 'ls' } }] }] },
      context('y.json'),
    );
    assert.ok(odd.ok);
    assert.deepEqual(
      odd.value[0]?.messages.map((m) => m.content),
      ['', '{"tool":"ls"}'],
    );
  });
});
