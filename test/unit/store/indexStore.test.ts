import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Episode } from '../../../src/core/episode';
import type { EpisodeBatch } from '../../../src/core/indexing';
import { compactEpisode } from '../../../src/ingest/compactEpisode';
import { IndexStore } from '../../../src/store/indexStore';
import { episode } from '../../builders/episodeBuilder';

const state = { size: 100, mtimeMs: 1, indexedOffset: 100, lines: 1, headHash: 'h' };

function storeWithSource(): { store: IndexStore; runId: number; sourceId: number } {
  const store = IndexStore.open(':memory:');
  const runId = store.upsertRun({ root: '', name: 'test' });
  const sourceId = store.resetSource('a.jsonl', runId, 'credit_lens_jsonl', state);
  return { store, runId, sourceId };
}

function batch(runId: number, sourceId: number, list: readonly Episode[]): EpisodeBatch {
  return {
    uri: 'a.jsonl',
    format: 'credit_lens_jsonl',
    runId,
    sourceId,
    episodes: list.map((e, i) => compactEpisode(e, { line: i + 1, offset: i * 10, length: 9 })),
    issues: [],
    state,
  };
}

const full: Episode = episode('full', {
  agents: [
    { name: 'planner', kind: 'llm', policy: 'p-lora', trainable: true },
    { name: 'solver', kind: 'llm' },
    { name: 'verifier', kind: 'llm' },
  ],
  messages: [
    { agent: 'planner', turn: 0, content: 'plan', tokenCount: 3 },
    {
      agent: 'solver',
      turn: 0,
      content: 'solve #### 4',
      tokenCount: 5,
      tokens: ['solve', '4'],
      logprobs: [-0.1, -0.2],
    },
    { agent: 'tool', content: 'output' },
  ],
  agentRewards: { planner: 0.5, solver: 1 },
  advantages: { planner: 0.3 },
  routing: { probs: { planner: 0.2, solver: 0.8 }, selected: 'solver' },
  counterfactuals: [
    { intervention: 'remove', agents: ['verifier', 'planner'], reward: 0, rewards: [0, 0], replayed: true },
  ],
  coalitions: [
    { agents: [], value: 0 },
    { agents: ['solver', 'planner'], value: 1, n: 4 },
  ],
  labels: [{ kind: 'mistake_agent_step', agent: 'solver', message: 1, reason: 'slip' }],
  groundTruth: '4',
  metadata: { temperature: 0.7 },
});

test('IndexStore.writeBatch() round-trips an episode with every optional field', () => {
  const { store, runId, sourceId } = storeWithSource();
  assert.deepEqual(store.writeBatch(batch(runId, sourceId, [full])).duplicates, []);
  const q = <T>(sql: string) => store.db.prepare<T>(sql).all();
  assert.deepEqual(
    q(
      'SELECT external_id, train_step, group_id, outcome, final_answer, ground_truth, n_messages, n_tokens, metadata_json FROM episode',
    ),
    [
      {
        external_id: 'full',
        train_step: 1,
        group_id: 'g1',
        outcome: 1,
        final_answer: '4',
        ground_truth: '4',
        n_messages: 3,
        n_tokens: 8,
        metadata_json: '{"temperature":0.7}',
      },
    ],
  );
  assert.deepEqual(q('SELECT agent_id, name, policy_id, trainable FROM agent ORDER BY agent_id'), [
    { agent_id: 1, name: 'planner', policy_id: 'p-lora', trainable: 1 },
    { agent_id: 2, name: 'solver', policy_id: null, trainable: null },
    { agent_id: 3, name: 'verifier', policy_id: null, trainable: null },
    { agent_id: 4, name: 'tool', policy_id: null, trainable: null },
  ]);
  assert.deepEqual(
    q(
      'SELECT agent_id, declared, n_messages, n_tokens, n_chars, reward, advantage FROM episode_agent ORDER BY agent_id',
    ),
    [
      { agent_id: 1, declared: 1, n_messages: 1, n_tokens: 3, n_chars: 4, reward: 0.5, advantage: 0.3 },
      { agent_id: 2, declared: 1, n_messages: 1, n_tokens: 5, n_chars: 12, reward: 1, advantage: null },
      { agent_id: 3, declared: 1, n_messages: 0, n_tokens: null, n_chars: 0, reward: null, advantage: null },
      { agent_id: 4, declared: 0, n_messages: 1, n_tokens: null, n_chars: 6, reward: null, advantage: null },
    ],
  );
  assert.deepEqual(
    q('SELECT message_id, seq, agent_id, turn_idx, n_chars, n_tokens, has_tokens FROM message ORDER BY seq'),
    [
      { message_id: 16777216, seq: 0, agent_id: 1, turn_idx: 0, n_chars: 4, n_tokens: 3, has_tokens: 0 },
      { message_id: 16777217, seq: 1, agent_id: 2, turn_idx: 0, n_chars: 12, n_tokens: 5, has_tokens: 1 },
      { message_id: 16777218, seq: 2, agent_id: 4, turn_idx: null, n_chars: 6, n_tokens: null, has_tokens: 0 },
    ],
  );
  assert.deepEqual(q('SELECT selected_agent_id, probs_json FROM routing'), [
    { selected_agent_id: 2, probs_json: '{"planner":0.2,"solver":0.8}' },
  ]);
  assert.deepEqual(q('SELECT agents, intervention, replayed, n, returns_json, value, source FROM counterfactual'), [
    { agents: '1,3', intervention: 'remove', replayed: 1, n: 2, returns_json: '[0,0]', value: 0, source: 'logged' },
  ]);
  assert.deepEqual(q('SELECT source, values_json, counts_json FROM coalition_value'), [
    { source: 'logged', values_json: '{"":0,"1,2":1}', counts_json: '{"1,2":4}' },
  ]);
  assert.deepEqual(q('SELECT kind, agent_id, message_seq, reason FROM label'), [
    { kind: 'mistake_agent_step', agent_id: 2, message_seq: 1, reason: 'slip' },
  ]);
});

test('IndexStore.writeBatch() rolls back the whole batch and the file state when a row fails', () => {
  const { store, runId, sourceId } = storeWithSource();
  const broken = { ...episode('bad'), messages: [{ agent: 'newcomer' } as unknown as Episode['messages'][number]] };
  const before = store.fileState('a.jsonl');
  assert.throws(() => store.writeBatch(batch(runId, sourceId, [episode('good'), broken])), TypeError);
  assert.equal(store.db.prepare<{ n: number }>('SELECT count(*) AS n FROM episode').get()?.n, 0);
  assert.deepEqual(store.fileState('a.jsonl'), before);
  // The agent created inside the rolled-back transaction must not be served from the cache.
  store.writeBatch(batch(runId, sourceId, [episode('again', { messages: [{ agent: 'newcomer', content: 'x' }] })]));
  assert.equal(store.db.prepare<{ n: number }>("SELECT count(*) AS n FROM agent WHERE name = 'newcomer'").get()?.n, 1);
});

test('IndexStore.resetSource() deletes the episodes, children, errors and search rows of a source', () => {
  const { store, runId, sourceId } = storeWithSource();
  store.writeBatch({
    ...batch(runId, sourceId, [full]),
    issues: [{ uri: 'a.jsonl', line: 2, offset: 10, reason: 'bad' }],
  });
  store.writeSearch([1], [{ episodeId: 1, content: 'plan' }]);
  store.resetSource('a.jsonl', runId, 'credit_lens_jsonl', state);
  for (const table of [
    'episode',
    'episode_agent',
    'routing',
    'counterfactual',
    'coalition_value',
    'label',
    'parse_error',
  ]) {
    assert.equal(store.db.prepare<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n, 0, table);
  }
  assert.equal(store.search.search('plan').length, 0);
});

const uiQueries: readonly [string, string, RegExp][] = [
  [
    'episode list by step and reward',
    'SELECT episode_id FROM episode WHERE run_id = 1 AND train_step = 3 ORDER BY outcome DESC',
    /USING (COVERING )?INDEX episode_step/,
  ],
  [
    'episode list by reward',
    'SELECT episode_id FROM episode WHERE run_id = 1 ORDER BY outcome',
    /USING (COVERING )?INDEX episode_outcome/,
  ],
  ['messages of an episode', 'SELECT * FROM message WHERE episode_id = 5', /SEARCH e USING INTEGER PRIMARY KEY/],
  [
    'agent-level credit by run, method and agent',
    "SELECT value FROM credit WHERE run_id = 1 AND method = 'loo' AND params_hash = 'h' AND agent_id = 2 AND message_seq IS NULL",
    // One set, then that set's range of a credit_value index (migration 0023).
    /^SEARCH s USING COVERING INDEX \S+ \(method=\? AND params_hash=\? AND run_id=\?\) \| SEARCH v USING (COVERING )?INDEX credit_agent_(sort|value) \(set_id=\?/,
  ],
  [
    'episodes of a group',
    "SELECT episode_id FROM episode WHERE run_id = 1 AND group_id = 'g'",
    /USING (COVERING )?INDEX episode_group/,
  ],
  [
    'roster of an agent',
    'SELECT episode_id FROM episode_agent WHERE agent_id = 3',
    /USING (COVERING )?INDEX episode_agent_agent/,
  ],
  [
    'errors of a file',
    'SELECT * FROM parse_error WHERE source_id = 1 ORDER BY line',
    /USING (COVERING )?INDEX parse_error_source/,
  ],
];

for (const [name, sql, expected] of uiQueries) {
  test(`schema serves "${name}" from an index`, () => {
    const { store } = storeWithSource();
    const plan = store.db
      .prepare<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((r) => r.detail)
      .join(' | ');
    assert.match(plan, expected);
    assert.doesNotMatch(plan, /TEMP B-TREE|SCAN episode|SCAN e |SCAN ea/, 'no sort or full scan');
  });
}

test('IndexStore records details of an agent declared later in the same pass, and keeps them', () => {
  const { store, runId, sourceId } = storeWithSource();
  const bare = episode('e1', { agents: [{ name: 'solver', kind: 'llm' }] });
  const detailed = episode('e2', { agents: [{ name: 'solver', kind: 'tool', policy: 'calc-v2', trainable: false }] });
  store.writeBatch(batch(runId, sourceId, [bare]));
  store.writeBatch(batch(runId, sourceId, [detailed]));
  store.writeBatch(batch(runId, sourceId, [episode('e3', { agents: [{ name: 'solver', kind: 'llm' }] })]));
  const row = store.db.prepare("SELECT kind, policy_id, trainable FROM agent WHERE name = 'solver'").get();
  assert.deepEqual(row, { kind: 'tool', policy_id: 'calc-v2', trainable: 0 });
});
