import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatRequest } from '../../../../src/core/chat';
import type { Episode } from '../../../../src/core/episode';
import type { Result } from '../../../../src/core/result';
import { planReplay } from '../../../../src/credit/replay/planReplay';
import type { GenerateStep, ReplayPlan, ReplayStep } from '../../../../src/credit/replay/replayTypes';
import { runReplay } from '../../../../src/credit/replay/runReplay';

// A planner → calculator (tool) → solver → verifier episode with system prompts, a logged user turn
// carrying the prompt, and sampling parameters in the metadata.
const pipeline: Episode = {
  id: 'e1',
  prompt: 'What is 6 × 7?',
  agents: [
    { name: 'planner', kind: 'llm', policy: 'lora-planner', systemPrompt: 'You plan.' },
    { name: 'calculator', kind: 'tool' },
    { name: 'solver', kind: 'llm', policy: 'lora-solver', systemPrompt: 'You solve.' },
    { name: 'verifier', kind: 'llm', policy: 'lora-verifier', systemPrompt: 'You verify.', defaultAction: 'APPROVE' },
  ],
  messages: [
    { agent: 'user', role: 'user', content: 'What is 6 × 7?' },
    { agent: 'planner', role: 'assistant', content: 'Multiply 6 by 7.', tokenCount: 5 },
    { agent: 'calculator', role: 'tool', channel: 'tool_result', content: '42' },
    { agent: 'solver', role: 'assistant', content: '6 × 7 = 42 #### 42', tokenCount: 9 },
    { agent: 'verifier', role: 'assistant', content: 'Checked. #### 42' },
    { agent: 'solver', role: 'assistant', content: 'Final: #### 42' },
  ],
  metadata: { temperature: 0.7, top_p: 0.9, seed: 11 },
};

function planned(result: Result<ReplayPlan>): ReplayPlan {
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

function plannedError(result: Result<ReplayPlan>): string {
  assert.ok(!result.ok, 'expected the plan to fail');
  return result.error;
}

function shape(steps: readonly ReplayStep[]): string[] {
  return steps.map((s) =>
    s.kind === 'generate'
      ? `generate ${s.agent}@${s.loggedIndex} with ${s.model}`
      : `keep ${s.message.origin} ${s.message.agent}@${s.loggedIndex}`,
  );
}

function generateSteps(plan: ReplayPlan): GenerateStep[] {
  return plan.steps.filter((s): s is GenerateStep => s.kind === 'generate');
}

describe('planReplay: plan shapes', () => {
  test('removing the planner keeps the user turn, keeps the tool result, and regenerates every later model message in order', () => {
    const plan = planned(planReplay(pipeline, { kind: 'agents', removed: ['planner'], mode: 'remove' }));
    assert.deepEqual(
      plan.prefix.map((m) => m.agent),
      ['user'],
    );
    assert.deepEqual(shape(plan.steps), [
      'keep logged calculator@2',
      'generate solver@3 with lora-solver',
      'generate verifier@4 with lora-verifier',
      'generate solver@5 with lora-solver',
    ]);
  });

  test('removing the verifier keeps everything before its first message and drops its message', () => {
    const plan = planned(planReplay(pipeline, { kind: 'agents', removed: ['verifier'], mode: 'remove' }));
    assert.deepEqual(
      plan.prefix.map((m) => m.agent),
      ['user', 'planner', 'calculator', 'solver'],
    );
    assert.deepEqual(shape(plan.steps), ['generate solver@5 with lora-solver']);
  });

  test('mode default puts the declared default action in place of each removed message', () => {
    const plan = planned(planReplay(pipeline, { kind: 'agents', removed: ['verifier'], mode: 'default' }));
    assert.deepEqual(shape(plan.steps), ['keep default verifier@4', 'generate solver@5 with lora-solver']);
    const replacement = plan.steps[0];
    assert.ok(replacement?.kind === 'keep');
    assert.deepEqual(replacement.message, {
      agent: 'verifier',
      role: 'assistant',
      content: 'APPROVE',
      origin: 'default',
    });
  });

  test('mode remove ignores a declared default action', () => {
    const plan = planned(planReplay(pipeline, { kind: 'agents', removed: ['verifier'], mode: 'remove' }));
    assert.ok(plan.steps.every((s) => s.kind !== 'keep' || s.message.origin !== 'default'));
  });

  test('removing an agent that never speaks changes nothing: the whole episode is the prefix', () => {
    const silent: Episode = { ...pipeline, agents: [...pipeline.agents, { name: 'critic', kind: 'llm' }] };
    const plan = planned(planReplay(silent, { kind: 'agents', removed: ['critic'], mode: 'remove' }));
    assert.equal(plan.prefix.length, pipeline.messages.length);
    assert.deepEqual(plan.steps, []);
  });

  test('a prefix replay keeps messages 0..k−1 and regenerates the later model messages', () => {
    assert.deepEqual(shape(planned(planReplay(pipeline, { kind: 'messages', keep: 4 })).steps), [
      'generate verifier@4 with lora-verifier',
      'generate solver@5 with lora-solver',
    ]);
    assert.deepEqual(planned(planReplay(pipeline, { kind: 'messages', keep: 6 })).steps, []);
    const fromScratch = planned(planReplay(pipeline, { kind: 'messages', keep: 0 }));
    assert.deepEqual(fromScratch.prefix, []);
    assert.deepEqual(shape(fromScratch.steps).slice(0, 3), [
      'keep logged user@0',
      'generate planner@1 with lora-planner',
      'keep logged calculator@2',
    ]);
  });

  test('a prefix outside 0..messages is an error that says the range', () => {
    assert.equal(
      plannedError(planReplay(pipeline, { kind: 'messages', keep: 7 })),
      'a prefix replay keeps 0 to 6 messages of this episode, not 7',
    );
    assert.match(plannedError(planReplay(pipeline, { kind: 'messages', keep: 1.5 })), /not 1\.5$/);
  });

  test('removing several agents cuts at the first message of any of them', () => {
    const plan = planned(planReplay(pipeline, { kind: 'agents', removed: ['verifier', 'planner'], mode: 'remove' }));
    assert.deepEqual(shape(plan.steps), [
      'keep logged calculator@2',
      'generate solver@3 with lora-solver',
      'generate solver@5 with lora-solver',
    ]);
  });
});

describe('planReplay: errors name the agent', () => {
  test('a default replay of an agent without a declared default action', () => {
    assert.match(
      plannedError(planReplay(pipeline, { kind: 'agents', removed: ['planner'], mode: 'default' })),
      /^agent "planner" declares no default action/,
    );
  });

  test('a removed agent outside the roster', () => {
    assert.equal(
      plannedError(planReplay(pipeline, { kind: 'agents', removed: ['critic'], mode: 'remove' })),
      `agent "critic" is not in the episode's roster (planner, calculator, solver, verifier, user)`,
    );
  });

  test('an agent to regenerate with no model: neither mapped, nor a policy, nor a default model', () => {
    const noPolicy: Episode = {
      ...pipeline,
      agents: pipeline.agents.map((a) => (a.name === 'solver' ? { name: 'solver', kind: 'llm' } : a)),
    };
    const error = plannedError(planReplay(noPolicy, { kind: 'agents', removed: ['planner'], mode: 'remove' }));
    assert.equal(
      error,
      'no model for agent "solver": map it in the replay config (models), declare its policy in the roster, or set a default model',
    );
  });
});

describe('planReplay: models', () => {
  const removePlanner = { kind: 'agents', removed: ['planner'], mode: 'remove' } as const;

  test('the config mapping wins over the roster policy, which wins over the default model', () => {
    const noPolicy: Episode = {
      ...pipeline,
      agents: pipeline.agents.map((a) => (a.name === 'verifier' ? { name: 'verifier', kind: 'llm' } : a)),
    };
    const plan = planned(
      planReplay(noPolicy, removePlanner, { models: { solver: 'served-solver' }, defaultModel: 'base' }),
    );
    assert.deepEqual(
      generateSteps(plan).map((s) => `${s.agent}:${s.model}`),
      ['solver:served-solver', 'verifier:base', 'solver:served-solver'],
    );
  });

  test('an undeclared speaker is a model that needs a model id', () => {
    const undeclared: Episode = {
      ...pipeline,
      messages: [...pipeline.messages, { agent: 'critic', content: 'Fine.' }],
    };
    assert.match(plannedError(planReplay(undeclared, removePlanner)), /^no model for agent "critic"/);
    assert.equal(
      generateSteps(planned(planReplay(undeclared, removePlanner, { defaultModel: 'base' }))).at(-1)?.model,
      'base',
    );
  });

  test('a mapping named like an object property does not leak into the model map', () => {
    const odd: Episode = {
      id: 'o',
      agents: [{ name: 'constructor', kind: 'llm' }],
      messages: [{ agent: 'constructor', content: 'x' }],
    };
    assert.match(
      plannedError(planReplay(odd, { kind: 'messages', keep: 0 }, { models: {} })),
      /^no model for agent "constructor"/,
    );
  });
});

describe('planReplay: the conversation as each agent saw it', () => {
  const removePlanner = { kind: 'agents', removed: ['planner'], mode: 'remove' } as const;

  test("a request is the agent's system prompt, then every earlier message: its own as assistant, the others' as user with their name", async () => {
    const plan = planned(planReplay(pipeline, removePlanner));
    const requests: ChatRequest[] = [];
    await runReplay(plan, (request) => {
      requests.push(request);
      return Promise.resolve(`reply ${requests.length}`);
    });
    // The prompt is the logged user turn, so it is not sent twice.
    assert.deepEqual(requests[0]?.messages, [
      { role: 'system', content: 'You solve.' },
      { role: 'user', content: 'What is 6 × 7?', name: 'user' },
      { role: 'user', content: '42', name: 'calculator' },
    ]);
    assert.deepEqual(requests[2]?.messages, [
      { role: 'system', content: 'You solve.' },
      { role: 'user', content: 'What is 6 × 7?', name: 'user' },
      { role: 'user', content: '42', name: 'calculator' },
      { role: 'assistant', content: 'reply 1' },
      { role: 'user', content: 'reply 2', name: 'verifier' },
    ]);
    assert.deepEqual(
      requests.map((r) => r.model),
      ['lora-solver', 'lora-verifier', 'lora-solver'],
    );
  });

  test('the task prompt opens every request when no logged user turn carries it', () => {
    const noUserTurn: Episode = { ...pipeline, messages: pipeline.messages.slice(1) };
    const step = generateSteps(planned(planReplay(noUserTurn, { kind: 'messages', keep: 0 })))[0];
    assert.deepEqual(step?.buildRequest([]).messages, [
      { role: 'system', content: 'You plan.' },
      { role: 'user', content: 'What is 6 × 7?' },
    ]);
  });

  test('a system message attributed to an agent is its system prompt when the roster has none, and private to it', () => {
    const logged: Episode = {
      id: 's',
      prompt: 'Add 2 and 2.',
      agents: [
        { name: 'a', policy: 'm', kind: 'llm' },
        { name: 'b', policy: 'm', kind: 'llm' },
        { name: 'system', kind: 'system' },
      ],
      messages: [
        { agent: 'system', role: 'system', content: 'Be brief.' },
        { agent: 'a', role: 'system', content: 'You are A.' },
        { agent: 'a', role: 'assistant', content: '4' },
        { agent: 'b', role: 'system', content: 'You are B.' },
        { agent: 'b', role: 'assistant', content: '4' },
      ],
    };
    const [a, b] = generateSteps(planned(planReplay(logged, { kind: 'messages', keep: 0 })));
    assert.deepEqual(a?.buildRequest(logged.messages.slice(0, 2).map((m) => ({ ...m, origin: 'logged' }))).messages, [
      { role: 'system', content: 'You are A.' },
      { role: 'user', content: 'Add 2 and 2.' },
      { role: 'system', content: 'Be brief.' },
    ]);
    const conversation = logged.messages.slice(0, 4).map((m) => ({ ...m, origin: 'logged' as const }));
    assert.deepEqual(b?.buildRequest(conversation).messages, [
      { role: 'system', content: 'You are B.' },
      { role: 'user', content: 'Add 2 and 2.' },
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: '4', name: 'a' },
    ]);
  });

  test('the roster system prompt wins over a logged system message', () => {
    const both: Episode = {
      ...pipeline,
      messages: [{ agent: 'solver', role: 'system', content: 'Logged prompt.' }, ...pipeline.messages],
    };
    const step = generateSteps(planned(planReplay(both, removePlanner)))[0];
    assert.equal(step?.buildRequest([]).messages[0]?.content, 'You solve.');
  });

  test('a visibility rule hides messages from an agent (per-agent views)', async () => {
    const ownOnly = planned(
      planReplay(pipeline, removePlanner, {
        visibility: (viewer, message) => message.agent === viewer || message.agent === 'user',
      }),
    );
    const requests: ChatRequest[] = [];
    await runReplay(ownOnly, (r) => (requests.push(r), Promise.resolve('ok')));
    assert.deepEqual(
      requests[2]?.messages.map((m) => m.name ?? m.role),
      ['system', 'user', 'assistant'],
    );
  });

  test('speaker names are made safe for the wire name field', () => {
    const spaced: Episode = {
      id: 'n',
      agents: [
        { name: 'Math Expert (v2)', kind: 'llm', policy: 'm' },
        { name: 'b', kind: 'llm', policy: 'm' },
      ],
      messages: [
        { agent: 'Math Expert (v2)', content: '1' },
        { agent: 'b', content: '2' },
      ],
    };
    const step = generateSteps(planned(planReplay(spaced, { kind: 'messages', keep: 1 })))[0];
    assert.equal(
      step?.buildRequest([{ agent: 'Math Expert (v2)', content: '1', origin: 'logged' }]).messages[0]?.name,
      'Math_Expert__v2_',
    );
  });

  test('notes name an agent that is replayed without a system prompt', () => {
    const bare: Episode = {
      ...pipeline,
      agents: pipeline.agents.map((a) => (a.name === 'verifier' ? { name: 'verifier', kind: 'llm', policy: 'v' } : a)),
    };
    assert.deepEqual(planned(planReplay(bare, removePlanner)).notes, [
      'agent "verifier" has no system prompt (systemPrompt in the roster): its requests start with the task',
    ]);
    assert.deepEqual(planned(planReplay(pipeline, removePlanner)).notes, []);
  });
});

describe('planReplay: sampling', () => {
  test('the trace sampling wins, the config fills the gaps, and sample j uses seed + j', () => {
    const step = generateSteps(
      planned(planReplay(pipeline, { kind: 'messages', keep: 0 }, { sampling: { temperature: 0, maxTokens: 256 } })),
    )[0];
    assert.deepEqual(step?.buildRequest([]).sampling, { temperature: 0.7, topP: 0.9, maxTokens: 256, seed: 11 });
    assert.equal(step?.buildRequest([], 3).sampling.seed, 14);
  });

  test('without logged sampling the config applies unchanged', () => {
    const step = generateSteps(
      planned(
        planReplay({ ...pipeline, metadata: {} }, { kind: 'messages', keep: 0 }, { sampling: { temperature: 0 } }),
      ),
    )[0];
    assert.deepEqual(step?.buildRequest([], 2).sampling, { temperature: 0 });
  });
});

describe('runReplay', () => {
  test('appends kept messages as they are and regenerated ones as replayed assistant messages', async () => {
    const plan = planned(planReplay(pipeline, { kind: 'agents', removed: ['verifier'], mode: 'default' }));
    const out = await runReplay(plan, () => Promise.resolve('#### 41'));
    assert.deepEqual(out.map((m) => `${m.agent}:${m.origin}:${m.content}`).slice(3), [
      'solver:logged:6 × 7 = 42 #### 42',
      'verifier:default:APPROVE',
      'solver:replayed:#### 41',
    ]);
  });

  test("rejects with the model server's error", async () => {
    const plan = planned(planReplay(pipeline, { kind: 'messages', keep: 0 }));
    await assert.rejects(
      runReplay(plan, () => Promise.reject(new Error('http://x: HTTP 503'))),
      /HTTP 503/,
    );
  });
});
