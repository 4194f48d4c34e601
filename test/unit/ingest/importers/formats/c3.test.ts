import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import type { AgentDecl, Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { c3BucketsMapper, c3Mapper } from '../../../../../src/ingest/importers/formats/c3/c3';
import type { FormatMapper, RecordContext } from '../../../../../src/ingest/importers/types';

const fixtures = join(__dirname, '../../../../fixtures/importers');

function records(relative: string): unknown[] {
  return readFileSync(join(fixtures, relative), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

function context(uri: string, index: number, roster: readonly AgentDecl[] = []): RecordContext {
  return { uri, fileName: basename(uri), index, line: index + 1, roster };
}

/** Maps every line of a fixture and checks each episode passes the canonical decoder. */
function mapFile(mapper: FormatMapper, relative: string, roster: readonly AgentDecl[] = []): Episode[] {
  return records(relative).flatMap((record, i) => {
    const result = mapper.toEpisodes(record, context(relative, i, roster));
    assert.ok(result.ok, result.ok ? '' : result.error);
    for (const episode of result.value) {
      const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
      assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
    }
    return result.value;
  });
}

describe('c3Mapper.toEpisodes: eval lines', () => {
  const [first, second] = mapFile(c3Mapper, 'c3/eval_during_train.jsonl');

  test('maps (question_id, k_id) to task and sample, one message per role in roles_topo order', () => {
    assert.equal(first?.id, 'eval-s40-q-17-k0');
    assert.equal(first?.task, 'q-17');
    assert.equal(first?.sample, 0);
    assert.equal(first?.group, 'eval-s40-q-17');
    assert.equal(first?.split, 'eval');
    assert.deepEqual(
      first?.messages.map((m) => m.agent),
      ['reasoner', 'actor'],
    );
    assert.deepEqual(first?.final, { answer: '\\boxed{4}', agent: 'actor' });
    assert.equal(first?.reward, 1);
    assert.equal(first?.groundTruth, '4');
    assert.deepEqual(first?.agents, [
      { name: 'reasoner', kind: 'llm', trainable: true },
      { name: 'actor', kind: 'llm', trainable: true },
    ]);
  });

  test('keeps the run context and parses the *_json fields into metadata', () => {
    const metadata = first?.metadata ?? {};
    assert.equal((metadata['run'] as Record<string, unknown>)['run_id'], 'c3-math-duo-0412');
    assert.deepEqual(metadata['reward_info'], { parsed: '4' });
    assert.deepEqual(metadata['dataset_meta'], { level: 2 });
  });

  test('reads drifted types: string step, k_id and reward, numeric label, roles_topo as JSON text', () => {
    assert.equal(second?.id, 'eval-s40-q-17-k1');
    assert.equal(second?.group, first?.group);
    assert.equal(second?.reward, 0);
    assert.equal(second?.groundTruth, '4');
    assert.deepEqual(
      second?.messages.map((m) => m.agent),
      ['reasoner', 'actor'],
    );
    assert.equal(second?.metadata?.['reward_info'], 'not json');
  });

  test('names roles after the run roster when it spells them differently', () => {
    const [e] = mapFile(c3Mapper, 'c3/eval_during_train.jsonl', [
      { name: 'Reasoner', kind: 'llm' },
      { name: 'Actor', kind: 'llm' },
    ]);
    assert.deepEqual(
      e?.messages.map((m) => m.agent),
      ['Reasoner', 'Actor'],
    );
    assert.deepEqual(e?.final?.agent, 'Actor');
    assert.deepEqual(e?.agents, [
      { name: 'Reasoner', kind: 'llm' },
      { name: 'Actor', kind: 'llm' },
    ]);
  });

  test('rejects a line without question_id or traj_role_outputs', () => {
    const run = (record: unknown): string => {
      const result = c3Mapper.toEpisodes(record, context('eval.jsonl', 0));
      assert.ok(!result.ok);
      return result.error;
    };
    assert.equal(run({ traj_role_outputs: {} }), 'missing "question_id"');
    assert.equal(run({ question_id: 'q', traj_role_outputs: 'text' }), 'missing "traj_role_outputs"');
  });
});

describe('c3Mapper.toEpisodes: train_rollouts lines', () => {
  const episodes = mapFile(c3Mapper, 'c3/rollouts.jsonl');

  test('groups experiences into one episode per trajectory and skips stats lines', () => {
    assert.deepEqual(
      episodes.map((e) => e.id),
      ['train-s39-q-17-k0', 'train-s39-q-17-k1'],
    );
    assert.deepEqual(
      episodes.map((e) => e.group),
      ['s39-q-17', 's39-q-17'],
    );
    assert.deepEqual(
      episodes.map((e) => e.sample),
      [0, 1],
    );
  });

  test('orders messages by roles_topo and logs per-role rewards and mean advantages', () => {
    const [e] = episodes;
    assert.deepEqual(e?.messages, [
      { agent: 'reasoner', role: 'assistant', content: 'Subtract 3, halve.' },
      { agent: 'actor', role: 'assistant', content: 'x = 4. \\boxed{4}' },
    ]);
    assert.equal(e?.prompt, 'Find x if 2x+3=11.');
    assert.equal(e?.reward, 1);
    assert.deepEqual(e?.agentRewards, { reasoner: 1, actor: 1 });
    assert.deepEqual(e?.advantages, { reasoner: 0.25, actor: 0.5 });
    assert.deepEqual(e?.metadata?.['returns'], { reasoner: 1, actor: 1 });
  });

  test('keeps compact experiences (no texts) as empty messages and says so', () => {
    const e = episodes[1];
    assert.deepEqual(
      e?.messages.map((m) => m.content),
      ['', ''],
    );
    assert.equal(e?.metadata?.['textsDropped'], true);
    assert.deepEqual(e?.advantages, { reasoner: -0.25, actor: -0.5 });
  });

  test('rejects an experience without info.role, naming it', () => {
    const result = c3Mapper.toEpisodes(
      { kind: 'train_rollouts', experiences: [{ info: { question_id: 'q' } }] },
      context('r.jsonl', 0),
    );
    assert.deepEqual(result, { ok: false, error: 'experiences[0].info: missing "role"' });
  });
});

describe('c3BucketsMapper.toEpisodes', () => {
  const episodes = mapFile(c3BucketsMapper, 'c3/buckets.jsonl');

  test('maps each candidate to an episode grouped by the frozen context', () => {
    assert.deepEqual(
      episodes.map((e) => [e.id, e.group, e.sample, e.reward]),
      [
        ['bucket-bkt_q-17_1234-j0', 'ctx-1234', 0, 1],
        ['bucket-bkt_q-17_1234-j1', 'ctx-1234', 1, 0],
        ['bucket-bkt_q-17_1234-j2', 'ctx-1234', 2, 0.5],
        ['bucket-bkt_q-17_99-j0', 'ctx-99', 0, 1],
        ['bucket-bkt_q-17_99-j1', 'ctx-99', 1, 0],
      ],
    );
  });

  test('puts the frozen context before the target role action, with lower-cased role names', () => {
    const [e] = episodes;
    assert.deepEqual(e?.messages, [
      { agent: 'reasoner', role: 'assistant', content: 'Subtract 3 from both sides, then halve.' },
      { agent: 'actor', role: 'assistant', content: 'x = 4. \\boxed{4}' },
    ]);
    assert.equal(e?.prompt, 'Find x if 2x+3=11.');
    assert.equal(e?.task, 'q-17');
  });

  test('logs every sibling as a replace_text counterfactual on the target role', () => {
    assert.deepEqual(episodes[0]?.counterfactuals, [
      {
        intervention: 'replace_text',
        agents: ['actor'],
        replacement: 'x = 7. \\boxed{7}',
        reward: 0,
        rewards: [0, 0],
        replayed: true,
      },
      {
        intervention: 'replace_text',
        agents: ['actor'],
        replacement: 'x = 4? \\boxed{4}',
        reward: 0.5,
        rewards: [1, 0],
        replayed: true,
      },
    ]);
    assert.deepEqual(episodes[3]?.counterfactuals, [
      { intervention: 'replace_text', agents: ['reasoner'], replacement: 'Add 3, halve.', reward: 0, replayed: true },
    ]);
    assert.deepEqual(episodes[3]?.metadata?.['nextActions'], ['x = 4. \\boxed{4}']);
  });

  test('rejects a bucket without candidates or target_role', () => {
    assert.deepEqual(c3BucketsMapper.toEpisodes({ target_role: 'Actor' }, context('b.jsonl', 0)), {
      ok: false,
      error: 'missing "candidates" (a C3 bucket)',
    });
    assert.deepEqual(c3BucketsMapper.toEpisodes({ candidates: [] }, context('b.jsonl', 0)), {
      ok: false,
      error: 'missing "target_role"',
    });
    assert.deepEqual(c3BucketsMapper.toEpisodes({ candidates: [{ j: 0 }], target_role: 'A' }, context('b.jsonl', 0)), {
      ok: false,
      error: 'candidates[0]: missing "action_text"',
    });
  });
});

describe('c3 detection', () => {
  const sample = (relative: string) => ({
    fileName: basename(relative),
    container: 'jsonl' as const,
    records: records(relative),
  });

  test('c3Mapper claims eval and rollout files, c3BucketsMapper bucket files, 0.95 each', () => {
    assert.equal(c3Mapper.detect(sample('c3/eval_during_train.jsonl')), 0.95);
    assert.equal(c3Mapper.detect(sample('c3/rollouts.jsonl')), 0.95);
    assert.equal(c3BucketsMapper.detect(sample('c3/buckets.jsonl')), 0.95);
    assert.equal(c3Mapper.detect(sample('c3/buckets.jsonl')), 0);
    assert.equal(c3BucketsMapper.detect(sample('c3/eval_during_train.jsonl')), 0);
    assert.equal(c3Mapper.detect(sample('verl/rollout/12.jsonl')), 0);
  });
});
