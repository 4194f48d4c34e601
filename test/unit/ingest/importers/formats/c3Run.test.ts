import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { c3Mapper } from '../../../../../src/ingest/importers/formats/c3/c3';

/** The run folder written by generate_run.py, a transcription of C3's own writers. */
const run = join(__dirname, '../../../../fixtures/importers/c3/run');

function mapLines(file: string): Episode[] {
  return readFileSync(join(run, file), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((l, i) => {
      const result = c3Mapper.toEpisodes(JSON.parse(l) as unknown, {
        uri: file,
        fileName: file,
        index: i,
        line: i + 1,
        roster: [],
      });
      assert.ok(result.ok, result.ok ? '' : result.error);
      for (const e of result.value) assert.ok(decodeEpisode(JSON.parse(JSON.stringify(e))).ok, e.id);
      return result.value;
    });
}

describe('c3Mapper: a run folder written by C3 (generate_run.py)', () => {
  const train = mapLines('train_rollouts.jsonl');

  test('one episode per prefix-tree leaf: 2 questions × fanout [2, 2] = 8 leaves per step, 2 steps', () => {
    assert.equal(train.length, 16);
    assert.deepEqual(
      train.slice(0, 4).map((e) => e.id),
      ['train-s1-0-k0', 'train-s1-0-k1', 'train-s1-0-k2', 'train-s1-0-k3'],
    );
    assert.deepEqual([...new Set(train.map((e) => e.group))], ['s1-0', 's1-1', 's2-0', 's2-1']);
  });

  test('the reasoner text comes from the parent node, the actor text from the leaf, in both micro-batch layouts', () => {
    for (const step of [1, 2]) {
      const e = train.find((x) => x.id === `train-s${step}-0-k2`);
      assert.deepEqual(e?.messages, [
        { agent: 'reasoner', role: 'assistant', content: 'Move 3 over: 2x = 8.' },
        { agent: 'actor', role: 'assistant', content: '2x = 8 so \\boxed{4}' },
      ]);
      assert.deepEqual(
        e?.agents.map((a) => a.name),
        ['reasoner', 'actor'],
      );
      assert.equal(e?.reward, 1);
      assert.deepEqual(e?.agentRewards, { reasoner: 1, actor: 1 });
      assert.equal(e?.metadata?.['textsDropped'], undefined);
    }
  });

  test('the leaf sibling under the same reasoner is a replace_text counterfactual on the actor', () => {
    const e = train.find((x) => x.id === 'train-s2-0-k0');
    assert.deepEqual(e?.counterfactuals, [
      { intervention: 'replace_text', agents: ['actor'], replacement: 'x = 7. \\boxed{7}', reward: 0, replayed: false },
    ]);
    assert.deepEqual(e?.agentRewards, { reasoner: 0.5, actor: 1 });
  });

  test('per-sample advantages from full tensors (B = 4) and none from summarised ones (B = 6, head only)', () => {
    assert.deepEqual(train.find((x) => x.id === 'train-s2-0-k1')?.advantages, { reasoner: 0, actor: -0.5 });
    const summarised = train.find((x) => x.id === 'train-s1-1-k3');
    assert.equal(summarised?.advantages, undefined);
  });

  test('eval lines split roles_topo "reasoner->actor" into two agents', () => {
    const evals = mapLines('eval_during_train.jsonl');
    assert.equal(evals.length, 4);
    for (const e of evals)
      assert.deepEqual(
        e.agents.map((a) => a.name),
        ['reasoner', 'actor'],
      );
  });
});

describe('c3Mapper: broken micro-batches', () => {
  const map = (record: unknown) =>
    c3Mapper.toEpisodes(record, { uri: 'r.jsonl', fileName: 'r.jsonl', index: 0, line: 1, roster: [] });

  test('a sample without a role (and no role_id) is an error naming it, not a crash', () => {
    assert.deepEqual(
      map({ kind: 'train_rollouts', experiences: [{ info: { role: ['actor', null], question_id: [0, 0] } }] }),
      {
        ok: false,
        error: 'experiences[0].info: missing "role" of sample 1',
      },
    );
  });

  test('misaligned or summarised columns are skipped, the leaves still read', () => {
    const info = {
      role: ['actor', 'actor'],
      question_id: [0, 0],
      k_id: [0, 1],
      is_leaf: [1, 1],
      reward: { __seq__: true, len: 2 },
      traj_role_outputs: { actor: ['a'] },
    };
    const result = map({
      kind: 'train_rollouts',
      global_step: 3,
      experiences: [{ info, rewards: [1, 0], advantages: { __tensor__: true, shape: [2, 40], head: [] } }],
    });
    assert.ok(result.ok);
    assert.deepEqual(
      result.value.map((e) => [e.id, e.reward, e.messages[0]?.content]),
      [
        ['train-s3-0-k0', 1, ''],
        ['train-s3-0-k1', 0, ''],
      ],
    );
  });
});
