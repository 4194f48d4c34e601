import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { checkAgentReferences } from '../../../../src/ingest/canonical/agentReferences';
import { indexRunFolder } from '../../../../src/ingest/indexRunFolder';
import { IndexStore } from '../../../../src/store/indexStore';
import { episode, tempFolder } from '../../../builders/episodeBuilder';

const fixture = join(__dirname, '../../../fixtures/canonical/unknown-agents');
const roster = 'who is not in the roster (planner, solver)';

function warningsOf(overrides: Partial<Episode>): readonly string[] {
  return checkAgentReferences(episode('e1', overrides)).warnings;
}

describe('checkAgentReferences: one warning per reference to an agent outside the roster', () => {
  test('a valid episode comes back as is, without warnings', () => {
    const e = episode('e1', {
      counterfactuals: [{ intervention: 'remove', agents: ['planner'], reward: 0 }],
      labels: [{ kind: 'k', agent: 'solver' }],
    });
    assert.deepEqual(checkAgentReferences(e), { episode: e, warnings: [] });
  });

  test('the roster is the declared agents and the speakers: an undeclared speaker may be named', () => {
    const e = episode('e1', {
      agents: [{ name: 'planner', kind: 'llm' }],
      coalitions: [{ agents: ['solver'], value: 1 }],
    });
    assert.deepEqual(checkAgentReferences(e).warnings, []);
  });

  test('a counterfactual naming an unknown agent is left out, the others are kept', () => {
    const counterfactuals = [
      { intervention: 'remove', agents: ['planner'], reward: 0.5 },
      { intervention: 'empty', agents: ['critic', 'judge'], reward: 0.2 },
    ] as const;
    const checked = checkAgentReferences(episode('e1', { counterfactuals }));
    assert.deepEqual(checked.warnings, [
      `counterfactuals[1].agents names "critic", "judge", who are not in the roster (planner, solver); that counterfactual was not indexed`,
    ]);
    assert.deepEqual(checked.episode.counterfactuals, [counterfactuals[0]]);
  });

  test('a coalition value naming an unknown agent is left out', () => {
    const checked = checkAgentReferences(
      episode('e1', {
        coalitions: [
          { agents: ['critic'], value: 0 },
          { agents: [], value: 0 },
        ],
      }),
    );
    assert.deepEqual(checked.warnings, [
      `coalitions[0].agents names "critic", ${roster}; that coalition value was not indexed`,
    ]);
    assert.deepEqual(checked.episode.coalitions, [{ agents: [], value: 0 }]);
  });

  test('a label naming an unknown agent is kept without its agent', () => {
    const checked = checkAgentReferences(
      episode('e1', { labels: [{ kind: 'mistake_agent_step', agent: 'critic', message: 1 }] }),
    );
    assert.deepEqual(checked.warnings, [
      `labels[0].agent names "critic", ${roster}; the label was indexed without its agent`,
    ]);
    assert.deepEqual(checked.episode.labels, [{ kind: 'mistake_agent_step', message: 1 }]);
  });

  test('a final answer by an unknown agent is kept without its agent', () => {
    const checked = checkAgentReferences(episode('e1', { final: { answer: '4', agent: 'critic' } }));
    assert.deepEqual(checked.warnings, [
      `final.agent names "critic", ${roster}; the final answer was indexed without its agent`,
    ]);
    assert.deepEqual(checked.episode.final, { answer: '4' });
  });

  test('a routing decision over an unknown expert is left out, naming the expert (not a sum)', () => {
    const checked = checkAgentReferences(
      episode('e1', { routing: { probs: { planner: 0.5, solver: 0.3, critic: 0.2 }, selected: 'solver' } }),
    );
    assert.deepEqual(checked.warnings, [
      `routing.probs names "critic", ${roster}; the routing decision was not indexed`,
    ]);
    assert.equal(checked.episode.routing, undefined);
  });

  test('a routing decision selecting an unknown expert is left out, naming routing.selected', () => {
    const checked = checkAgentReferences(
      episode('e1', { routing: { probs: { planner: 0.5, critic: 0.5 }, selected: 'critic' } }),
    );
    assert.deepEqual(checked.warnings, [
      `routing.selected names "critic", ${roster}; the routing decision was not indexed`,
    ]);
  });

  test('behaviour probabilities over an unknown expert leave the routing decision out', () => {
    const routing = {
      probs: { planner: 0.5, solver: 0.5 },
      selected: 'solver',
      behaviourProbs: { planner: 0.5, critic: 0.5 },
    };
    assert.deepEqual(warningsOf({ routing }), [
      `routing.behaviourProbs names "critic", ${roster}; the routing decision was not indexed`,
    ]);
  });

  test('a roster agent missing from routing.probs is no expert of the decision: no warning', () => {
    assert.deepEqual(warningsOf({ routing: { probs: { solver: 1 }, selected: 'solver' } }), []);
  });

  test('per-agent rewards and advantages of unknown agents are left out, the others kept', () => {
    const checked = checkAgentReferences(
      episode('e1', { agentRewards: { planner: 1, critic: 0 }, advantages: { judge: 1 } }),
    );
    assert.deepEqual(checked.warnings, [
      `agentRewards names "critic", ${roster}; that reward was not indexed`,
      `advantages names "judge", ${roster}; that advantage was not indexed`,
    ]);
    assert.deepEqual(checked.episode.agentRewards, { planner: 1 });
  });

  test('an empty roster is named as such', () => {
    assert.deepEqual(
      checkAgentReferences(episode('e1', { agents: [], messages: [], final: { answer: 'x', agent: 'a' } })).warnings,
      ['final.agent names "a", who is not in the roster (it is empty); the final answer was indexed without its agent'],
    );
  });
});

describe('indexRunFolder: references to unknown agents are issues at file:line, and every line is indexed', () => {
  async function indexFixture(): Promise<IndexStore> {
    const root = tempFolder();
    cpSync(fixture, root, { recursive: true });
    const store = IndexStore.open(':memory:');
    await indexRunFolder(root, store);
    return store;
  }

  function rows<T>(store: IndexStore, sql: string): T[] {
    return store.db.prepare<T>(sql).all();
  }

  test('each bad reference is reported with file:line, field and agent', async () => {
    const store = await indexFixture();
    const errors = rows<{ line: number; reason: string }>(
      store,
      'SELECT line, reason FROM parse_error ORDER BY line',
    ).map((r) => `rollouts.jsonl:${r.line}: ${r.reason}`);
    assert.deepEqual(errors, [
      `rollouts.jsonl:2: counterfactuals[1].agents names "critic", ${roster}; that counterfactual was not indexed`,
      `rollouts.jsonl:3: coalitions[1].agents names "critic", ${roster}; that coalition value was not indexed`,
      `rollouts.jsonl:4: labels[0].agent names "critic", ${roster}; the label was indexed without its agent`,
      `rollouts.jsonl:5: final.agent names "critic", ${roster}; the final answer was indexed without its agent`,
      `rollouts.jsonl:6: routing.probs names "critic", ${roster}; the routing decision was not indexed`,
      `rollouts.jsonl:7: routing.selected names "critic", ${roster}; the routing decision was not indexed`,
      `rollouts.jsonl:8: agentRewards names "critic", ${roster}; that reward was not indexed`,
    ]);
  });

  test('docs/trace-format.md quotes these warnings verbatim', async () => {
    const doc = readFileSync(join(__dirname, '../../../../docs/trace-format.md'), 'utf8');
    const quoted = [...doc.matchAll(/^\S+\.jsonl:\d+: (.+ names .+)$/gm)].map((m) => m[1] ?? '');
    assert.ok(quoted.length >= 3);
    const store = await indexFixture();
    const real = new Set(rows<{ reason: string }>(store, 'SELECT reason FROM parse_error').map((r) => r.reason));
    assert.deepEqual(
      quoted.filter((q) => !real.has(q)),
      [],
    );
  });

  test('every line is indexed, with its valid references and no agent outside the roster', async () => {
    const store = await indexFixture();
    assert.equal(rows<{ n: number }>(store, 'SELECT count(*) AS n FROM episode')[0]?.n, 9);
    assert.deepEqual(
      rows<{ name: string }>(store, 'SELECT name FROM agent ORDER BY agent_id').map((r) => r.name),
      ['planner', 'solver'],
    );
    const counterfactuals = rows<{ id: string; agents: string }>(
      store,
      'SELECT e.external_id AS id, c.agents FROM counterfactual c JOIN episode e USING (episode_id) ORDER BY c.cf_id',
    );
    assert.deepEqual(
      counterfactuals.map((c) => c.id),
      ['ok-1', 'bad-counterfactual'],
    );
    const coalition = rows<{ values_json: string }>(
      store,
      "SELECT values_json FROM coalition_value JOIN episode e USING (episode_id) WHERE e.external_id = 'bad-coalition'",
    );
    assert.equal(Object.keys(JSON.parse(coalition[0]?.values_json ?? '{}') as object).length, 2);
    const labels = rows<{ id: string; agent_id: number | null; message_seq: number }>(
      store,
      'SELECT e.external_id AS id, l.agent_id, l.message_seq FROM label l JOIN episode e USING (episode_id) ORDER BY l.label_id',
    );
    assert.deepEqual(
      labels.map((l) => [l.id, l.agent_id === null, l.message_seq]),
      [
        ['ok-1', false, 0],
        ['bad-label', true, 1],
      ],
    );
    const finals = rows<{ id: string; final_agent_id: number | null; final_answer: string }>(
      store,
      "SELECT external_id AS id, final_agent_id, final_answer FROM episode WHERE external_id = 'bad-final'",
    );
    assert.deepEqual(
      finals.map((f) => [f.final_agent_id, f.final_answer]),
      [[null, '4']],
    );
    assert.equal(rows<{ n: number }>(store, 'SELECT count(*) AS n FROM routing')[0]?.n, 0);
    const rewards = rows<{ reward: number | null }>(
      store,
      "SELECT ea.reward FROM episode_agent ea JOIN episode e USING (episode_id) WHERE e.external_id = 'bad-agent-reward' ORDER BY ea.ordinal",
    );
    assert.deepEqual(
      rewards.map((r) => r.reward),
      [1, null],
    );
  });
});
