import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentDecl, Episode } from '../../../../src/core/episode';
import { decodeAgent, decodeEpisode } from '../../../../src/ingest/canonical/decodeEpisode';

const runRoster: readonly AgentDecl[] = [
  { name: 'planner', kind: 'llm' },
  { name: 'solver', kind: 'llm' },
  { name: 'verifier', kind: 'llm' },
];

/** A small valid line; `extra` adds or overrides fields. */
function line(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'e1',
    messages: [
      { agent: 'planner', content: 'plan' },
      { agent: 'solver', content: '42' },
    ],
    ...extra,
  };
}

function decoded(value: unknown, roster: readonly AgentDecl[] = []): Episode {
  const result = decodeEpisode(value, roster);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

function errorOf(value: unknown): string {
  const result = decodeEpisode(value);
  assert.ok(!result.ok, 'expected a decode error');
  return result.error;
}

describe('decodeEpisode: ids and names', () => {
  test('decodeEpisode(line) keeps numeric ids and agent names as their decimal text', () => {
    const e = decoded({
      id: 7,
      group: 3,
      task: 12,
      agents: [{ name: 0 }],
      messages: [{ agent: 0, content: 'x' }],
      final: { answer: 'x', agent: 0 },
      routing: { probs: { '1': 1 }, selected: 1 },
      labels: [{ kind: 'k', agent: 0 }],
    });
    assert.equal(e.id, '7');
    assert.equal(e.group, '3');
    assert.equal(e.task, '12');
    assert.equal(e.agents[0]?.name, '0');
    assert.equal(e.messages[0]?.agent, '0');
    assert.equal(e.final?.agent, '0');
    assert.equal(e.routing?.selected, '1');
    assert.equal(e.labels?.[0]?.agent, '0');
  });

  test('decodeEpisode(line) names the JSON path of a non-string message agent', () => {
    assert.equal(
      errorOf(
        line({
          messages: [
            { agent: 'a', content: '' },
            { agent: false, content: '' },
          ],
        }),
      ),
      'messages[1].agent: expected a non-empty string or number, got boolean',
    );
  });

  test('decodeEpisode(line) rejects an empty episode id', () => {
    assert.equal(errorOf(line({ id: '' })), 'id: expected a non-empty string or number, got string');
  });
});

describe('decodeEpisode: roster', () => {
  test('decodeEpisode(line, roster) uses the run roster when the line declares no agents', () => {
    assert.deepEqual(decoded(line(), runRoster).agents, runRoster);
    assert.deepEqual(decoded(line({ agents: null }), runRoster).agents, runRoster);
  });

  test('decodeEpisode(line, roster) prefers the line roster, even an empty one', () => {
    assert.deepEqual(decoded(line({ agents: ['solver'] }), runRoster).agents, [{ name: 'solver', kind: 'llm' }]);
    assert.deepEqual(decoded(line({ agents: [] }), runRoster).agents, []);
  });

  test('decodeEpisode(line) keeps the roster as declared: undeclared speakers are not added, silent agents are not dropped', () => {
    const e = decoded(line({ agents: ['planner', 'verifier'] }));
    assert.deepEqual(
      e.agents.map((a) => a.name),
      ['planner', 'verifier'],
    );
    assert.deepEqual(
      e.messages.map((m) => m.agent),
      ['planner', 'solver'],
    );
  });

  test('decodeAgent(value) reads a bare name as an llm agent', () => {
    assert.deepEqual(decodeAgent('critic', 'agents[0]'), { name: 'critic', kind: 'llm' });
  });

  test('decodeAgent(value) reads every field of an agent object and defaults kind to llm', () => {
    const full = {
      name: 'calc',
      kind: 'tool',
      policy: 'p',
      trainable: false,
      description: 'adds numbers',
      systemPrompt: 'You add.',
      defaultAction: '0',
    };
    assert.deepEqual(decodeAgent(full, 'agents[0]'), full);
    assert.deepEqual(
      decodeAgent({ name: 'x', kind: null, policy: null, systemPrompt: null, defaultAction: null }, 'agents[0]'),
      { name: 'x', kind: 'llm' },
    );
  });

  test('decodeAgent(value) rejects a system prompt or default action that is not a string, naming the field', () => {
    assert.throws(() => decodeAgent({ name: 'x', systemPrompt: 3 }, 'agents[1]'), {
      message: /^agents\[1\]\.systemPrompt: expected a string/,
    });
    assert.throws(() => decodeAgent({ name: 'x', defaultAction: ['no'] }, 'agents[1]'), {
      message: /^agents\[1\]\.defaultAction: expected a string/,
    });
  });

  test('decodeAgent(value) rejects an empty bare name and a bare number', () => {
    assert.throws(() => decodeAgent('', 'agents[2]'), { message: 'agents[2]: expected an object, got string' });
    assert.throws(() => decodeAgent(3, 'agents[2]'), { message: 'agents[2]: expected an object, got number' });
  });
});

describe('decodeEpisode: optional fields', () => {
  test('decodeEpisode(line) treats null optional fields as absent', () => {
    const e = decoded(
      line({ step: null, split: null, reward: null, final: null, routing: null, labels: null, metadata: null }),
    );
    for (const key of ['step', 'split', 'reward', 'final', 'routing', 'labels', 'metadata'])
      assert.equal(key in e, false, key);
  });

  test('decodeEpisode(line) accepts integer fields written as 2.0 and rejects fractions', () => {
    assert.equal(decoded(line({ step: 2.0 })).step, 2);
    assert.equal(errorOf(line({ sample: 0.5 })), 'sample: expected an integer, got 0.5');
  });

  test('decodeEpisode(line) keeps a string groundTruth and serialises any other value as JSON', () => {
    assert.equal(decoded(line({ groundTruth: '12' })).groundTruth, '12');
    assert.equal(decoded(line({ groundTruth: 12 })).groundTruth, '12');
    assert.equal(decoded(line({ groundTruth: { answer: [1, 2] } })).groundTruth, '{"answer":[1,2]}');
    assert.equal(decoded(line({ groundTruth: false })).groundTruth, 'false');
  });

  test('decodeEpisode(line) accepts unknown fields of a later minor version and still decodes the known ones', () => {
    const e = decoded(
      line({ version: '1.7', critique: { score: 3 }, messages: [{ agent: 3, content: 'x', confidence: 0.9 }] }),
    );
    assert.equal(e.messages[0]?.agent, '3');
  });

  test('decodeEpisode(line) accepts an empty message list', () => {
    assert.deepEqual(decoded({ id: 'e', messages: [] }).messages, []);
  });
});

describe('decodeEpisode: tokens', () => {
  test('decodeEpisode(line) accepts tokens, logprobs and attribution of the same length, or any one alone', () => {
    decoded(
      line({
        messages: [{ agent: 'a', content: 'ab', tokens: ['a', 'b'], logprobs: [-1, -2], attribution: [0.5, 0.5] }],
      }),
    );
    decoded(line({ messages: [{ agent: 'a', content: 'ab', logprobs: [-1, -2] }] }));
  });

  test('decodeEpisode(line) rejects token arrays of different lengths, naming the message', () => {
    assert.equal(
      errorOf(line({ messages: [{ agent: 'a', content: 'ab', tokens: ['a', 'b'], attribution: [1] }] })),
      'messages[0]: tokens, logprobs and attribution must have the same length, got 2 / 1',
    );
  });
});

describe('decodeEpisode: connections', () => {
  const three = (last: Record<string, unknown>) => [
    { agent: 'a', content: 'x' },
    { agent: 'b', content: 'y' },
    { agent: 'c', content: 'z', ...last },
  ];

  test('decodeEpisode(line) reads connections to earlier messages with one weight each', () => {
    const messages = decoded(line({ messages: three({ connections: [0, 1], weights: [0.5, -1] }) })).messages;
    assert.deepEqual(messages[2]?.connections, [0, 1]);
    assert.deepEqual(messages[2]?.weights, [0.5, -1]);
    assert.equal(
      decoded(line({ messages: three({ connections: null, weights: null }) })).messages[2]?.connections,
      undefined,
    );
  });

  test('decodeEpisode(line) rejects connections without their weights, to later messages, or not indices', () => {
    assert.equal(
      errorOf(line({ messages: three({ connections: [0, 1], weights: [1] }) })),
      'messages[2]: connections and weights must have the same length, got 2 / 1',
    );
    assert.equal(
      errorOf(line({ messages: three({ weights: [1] }) })),
      'messages[2]: connections and weights must have the same length, got 0 / 1',
    );
    assert.equal(
      errorOf(line({ messages: three({ connections: [2], weights: [1] }) })),
      'messages[2].connections[0]: must be the index of an earlier message (0..1), got 2',
    );
    assert.equal(
      errorOf(line({ messages: three({ connections: [0.5], weights: [1] }) })),
      'messages[2].connections[0]: must be the index of an earlier message (0..1), got 0.5',
    );
    assert.match(errorOf(line({ messages: three({ connections: ['0'], weights: [1] }) })), /expected a finite number/);
  });
});

describe('decodeEpisode: routing', () => {
  const probs = { math: 0.5, code: 0.3, chat: 0.2 };

  test('decodeEpisode(line) reads the probabilities of all experts, the selected one and behaviour probabilities', () => {
    const behaviourProbs = { math: 0.4, code: 0.4, chat: 0.2 };
    assert.deepEqual(decoded(line({ routing: { probs, selected: 'code', behaviourProbs } })).routing, {
      probs,
      selected: 'code',
      behaviourProbs,
    });
  });

  test('decodeEpisode(line) accepts probabilities that sum to 1 within 0.001', () => {
    decoded(line({ routing: { probs: { a: 0.3333, b: 0.3333, c: 0.3333 }, selected: 'a' } }));
  });

  test('decodeEpisode(line) rejects probabilities that sum to 1 only within 0.002', () => {
    assert.match(
      errorOf(line({ routing: { probs: { a: 0.499, b: 0.499 }, selected: 'a' } })),
      /^routing\.probs: probabilities sum to 0\.998, expected 1$/,
    );
  });

  test('decodeEpisode(line) rejects behaviour probabilities that do not sum to 1', () => {
    assert.match(
      errorOf(line({ routing: { probs, selected: 'code', behaviourProbs: { math: 0.5 } } })),
      /^routing\.behaviourProbs: probabilities sum to 0\.5/,
    );
  });

  test('decodeEpisode(line) rejects a selected expert without a probability', () => {
    assert.equal(
      errorOf(line({ routing: { probs, selected: 'law' } })),
      'routing.selected: "law" has no probability in routing.probs',
    );
  });

  test('decodeEpisode(line) requires routing.probs', () => {
    assert.equal(
      errorOf(line({ routing: { selected: 'code' } })),
      'routing.probs: is required (probabilities of all experts)',
    );
  });
});

describe('decodeEpisode: counterfactuals and coalitions', () => {
  test('decodeEpisode(line) reads every field of a counterfactual', () => {
    const cf = {
      intervention: 'replace_text',
      agents: ['solver'],
      replacement: '41',
      reward: 0.25,
      rewards: [0, 0, 1, 0],
      replayed: true,
      evaluator: 'gsm8k@1',
    };
    assert.deepEqual(decoded(line({ counterfactuals: [cf] })).counterfactuals, [cf]);
  });

  test('decodeEpisode(line) accepts each of the six interventions', () => {
    for (const intervention of ['remove', 'empty', 'placeholder', 'resample_self', 'resample_ref', 'replace_text']) {
      decoded(line({ counterfactuals: [{ intervention, agents: ['planner'], reward: 0 }] }));
    }
  });

  test('decodeEpisode(line) requires at least one agent in a counterfactual', () => {
    assert.equal(
      errorOf(line({ counterfactuals: [{ intervention: 'remove', agents: [], reward: 0 }] })),
      'counterfactuals[0].agents: must name at least one agent',
    );
    assert.equal(
      errorOf(line({ counterfactuals: [{ intervention: 'remove', reward: 0 }] })),
      'counterfactuals[0].agents: must name at least one agent',
    );
  });

  test('decodeEpisode(line) reads [] as the empty coalition', () => {
    assert.deepEqual(
      decoded(
        line({
          coalitions: [
            { agents: [], value: 0 },
            { agents: ['solver'], value: 1, n: 4 },
          ],
        }),
      ).coalitions,
      [
        { agents: [], value: 0 },
        { agents: ['solver'], value: 1, n: 4 },
      ],
    );
  });

  test('decodeEpisode(line) requires the value of a coalition', () => {
    assert.equal(errorOf(line({ coalitions: [{ agents: ['solver'] }] })), 'coalitions[0].value: is required');
  });
});

describe('decodeEpisode: labels', () => {
  test('decodeEpisode(line) reads a label anchored on the last message', () => {
    const label = {
      kind: 'mistake_agent_step',
      agent: 'solver',
      message: 1,
      value: '1.1',
      reason: 'wrong sum',
      annotator: 'human',
    };
    assert.deepEqual(decoded(line({ labels: [label] })).labels, [label]);
  });

  test('decodeEpisode(line) rejects a label message index past the last message', () => {
    assert.equal(
      errorOf(line({ labels: [{ kind: 'k', message: 2 }] })),
      'labels[0].message: index 2 is outside messages[0..1]',
    );
  });

  test('decodeEpisode(line) requires the kind of a label', () => {
    assert.equal(errorOf(line({ labels: [{ agent: 'solver' }] })), 'labels[0].kind: is required');
  });
});

describe('decodeEpisode: robustness', () => {
  test('decodeEpisode(value) returns an error for any non-object JSON value instead of throwing', () => {
    for (const [value, kind] of [
      [null, 'null'],
      [3, 'number'],
      ['x', 'string'],
      [[], 'array'],
      [true, 'boolean'],
    ] as const) {
      assert.equal(errorOf(value), `expected an object, got ${kind}`);
    }
  });

  test('decodeEpisode(line) reports the version before any other problem', () => {
    assert.match(errorOf({ version: '3.0' }), /^version: unsupported format version 3\.0/);
  });
});
