import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatRequest } from '../../../src/core/chat';
import type { Episode } from '../../../src/core/episode';
import type { FinalAnswerOptions } from '../../../src/credit/evaluator/finalAnswerEvaluator';
import { planReplay } from '../../../src/credit/replay/planReplay';
import { replayReward } from '../../../src/credit/replay/replayReward';
import type { ReplayIntervention } from '../../../src/credit/replay/replayTypes';
import { runReplay } from '../../../src/credit/replay/runReplay';
import { playDemoAgent } from '../../../src/demo/demoAgents';
import { demoSystemPrompts } from '../../../src/demo/demoPrompts';
import { seedFor, seedLuck } from '../../../src/demo/demoSeed';
import { routedEpisodes } from '../../../src/demo/routedEpisodes';
import { teamEpisodes } from '../../../src/demo/teamEpisodes';

const complete = (request: ChatRequest): Promise<string> => Promise.resolve(playDemoAgent(request));
const teamOptions: FinalAnswerOptions = { extraction: 'gsm8k', aggregation: 'last' };

/** The reward of replaying `episode` under `intervention` with the demo's agents, scored by the final-answer checker. */
async function replayed(episode: Episode, intervention: ReplayIntervention, options = teamOptions): Promise<number> {
  const plan = planReplay(episode, intervention);
  assert.ok(plan.ok, plan.ok ? '' : plan.error);
  const conversation = await runReplay(plan.value, complete);
  const agents = episode.agents.map((a) => a.name);
  const selected = episode.routing ? agents.indexOf(episode.routing.selected) : -1;
  const base = { agents, messages: [], groundTruth: episode.groundTruth, ...(selected >= 0 ? { selected } : {}) };
  return replayReward(base, conversation, options);
}

// Every 5th episode of the default run (all 40 steps), and a short run with two rounds.
const team = [...teamEpisodes()].filter((_, i) => i % 5 === 0);
const twoRounds = [...teamEpisodes({ episodes: 48, rounds: 2 })];

describe('playDemoAgent: replaying the demo reproduces its logged values', () => {
  test('every coalition of the team run, replayed with the agents outside it removed, scores its logged value', async () => {
    for (const e of [...team, ...twoRounds]) {
      for (const c of e.coalitions ?? []) {
        const removed = e.agents.map((a) => a.name).filter((name) => !c.agents.includes(name));
        const value = removed.length === 3 ? 0 : await replayed(e, { kind: 'agents', removed, mode: 'remove' });
        assert.equal(value, c.value, `${e.id} without ${removed.join('+') || 'nobody'}`);
      }
    }
  });

  test('regenerating a whole episode from its prompt with its logged seed reproduces its reward', async () => {
    for (const e of [...team, ...twoRounds])
      assert.equal(await replayed(e, { kind: 'messages', keep: 0 }), e.reward, e.id);
  });

  test('the verifier replaced by its default action (APPROVE) scores as the verifier removed', async () => {
    for (const e of team.slice(0, 60)) {
      const removed = e.counterfactuals?.find((c) => c.agents[0] === 'verifier')?.reward;
      assert.equal(await replayed(e, { kind: 'agents', removed: ['verifier'], mode: 'default' }), removed, e.id);
    }
  });

  test('routed experts: regenerating both reproduces the reward; removing the expert not selected changes nothing', async () => {
    const routed = [...routedEpisodes({ steps: 2 })];
    const options: FinalAnswerOptions = { extraction: 'gsm8k', aggregation: 'selected' };
    for (const e of routed) {
      assert.equal(await replayed(e, { kind: 'messages', keep: 0 }, options), e.reward, e.id);
      const other = e.routing?.selected === 'fast' ? 'careful' : 'fast';
      assert.equal(await replayed(e, { kind: 'agents', removed: [other], mode: 'remove' }, options), e.reward, e.id);
    }
  });
});

describe('playDemoAgent: the agents', () => {
  const episode = [...teamEpisodes({ episodes: 32 })][0] as Episode;
  const problem = episode.prompt ?? '';
  const request = (
    role: keyof typeof demoSystemPrompts,
    seed: number,
    extra: ChatRequest['messages'] = [],
  ): ChatRequest => ({
    model: 'served',
    messages: [{ role: 'system', content: demoSystemPrompts[role] }, { role: 'user', content: problem }, ...extra],
    sampling: { temperature: 0.8, seed },
  });
  const lucky = seedFor(1, { first: true, second: true, catches: true, engaged: true });
  const unlucky = seedFor(1, {});
  const answer = (text: string): string | undefined => /#### (-?\d+)\s*$/.exec(text)?.[1];

  test('the same request always gets the same reply', () => {
    for (const role of ['planner', 'solver', 'verifier', 'fast', 'careful'] as const) {
      assert.equal(playDemoAgent(request(role, 5)), playDemoAgent(request(role, 5)), role);
    }
  });

  test('the seed draws the luck the writer asked for', () => {
    assert.deepEqual(seedLuck(lucky), { first: true, second: true, catches: true, engaged: true });
    assert.deepEqual(seedLuck(unlucky), { first: false, second: false, catches: false, engaged: false });
    assert.ok(Number.isInteger(lucky) && lucky >= 0 && lucky < 2 ** 31);
  });

  test('the planner plans without computing; the solver is right with a plan when lucky and wrong alone when unlucky', () => {
    const plan = playDemoAgent(request('planner', unlucky));
    assert.match(plan, /^Plan:\n1\. /);
    assert.equal(answer(plan), undefined);
    const gold = episode.groundTruth;
    assert.equal(
      answer(playDemoAgent(request('solver', lucky, [{ role: 'user', content: plan, name: 'planner' }]))),
      gold,
    );
    assert.notEqual(answer(playDemoAgent(request('solver', unlucky))), gold);
    assert.match(playDemoAgent(request('solver', unlucky)), /^There is no plan/);
  });

  test('the verifier corrects a wrong solution when it catches it, echoes when idle, and has nothing to check alone', () => {
    const wrong = playDemoAgent(request('solver', unlucky));
    const catching = seedFor(2, { catches: true, engaged: true });
    const idle = seedFor(2, { catches: false, engaged: false });
    const seen = [{ role: 'user' as const, content: wrong, name: 'solver' }];
    assert.equal(answer(playDemoAgent(request('verifier', catching, seen))), episode.groundTruth);
    const echo = playDemoAgent(request('verifier', idle, seen));
    assert.match(echo, /^(Looks good|LGTM|Agreed|No issues)/);
    assert.equal(answer(echo), answer(wrong));
    assert.equal(playDemoAgent(request('verifier', catching)), 'There is no solution to check.');
  });

  test("the late steps' idle verifier stays idle when the episode is replayed", async () => {
    const late = [...teamEpisodes()].filter((e) => (e.step ?? 0) >= 30).slice(0, 20);
    for (const e of late) {
      const plan = planReplay(e, { kind: 'messages', keep: 2 });
      assert.ok(plan.ok);
      const verifier = (await runReplay(plan.value, complete)).at(-1);
      assert.match(verifier?.content ?? '', /^(Looks good|LGTM|Agreed|No issues)[^\n]*#### \d+$/, e.id);
    }
  });

  test('an agent is recognised by its model id when its system prompt is not the demo’s; anything else is declined', () => {
    const byModel: ChatRequest = {
      model: 'qwen2.5-1.5b-lora-planner',
      messages: [{ role: 'user', content: problem }],
      sampling: {},
    };
    assert.match(playDemoAgent(byModel), /^Plan:/);
    assert.match(playDemoAgent({ ...byModel, model: 'gpt-4o' }), /none of the demo's agents/);
    assert.match(
      playDemoAgent({ ...byModel, messages: [{ role: 'user', content: 'Write a poem.' }] }),
      /only solve the demo's arithmetic word problems/,
    );
    assert.match(playDemoAgent({ ...byModel, messages: [] }), /only solve/);
  });
});
