import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../../../src/core/mulberry32';
import { runOverview, type RunOverviewInput } from '../../../../src/engine/views/runOverview';
import type { BrowseFlag } from '../../../../src/store/browseRepository';

const agents = ['planner', 'solver', 'verifier'];

/** The definition the overview documents, one cell at a time: the oracle for the counted matrix. */
function coveringFlags(input: RunOverviewInput, agent: string, step: number): number {
  return input.flags.filter((f) => {
    if (f.agent !== agent) return false;
    if (f.scope === 'run') return true;
    if (f.scope === 'episode') return input.episodeFlagSteps.get(f.flagId) === step;
    return f.steps !== null && f.steps[0] <= step && step <= f.steps[1];
  }).length;
}

function seededInput(seed: number): RunOverviewInput {
  const uniform = mulberry32(seed);
  const pick = (n: number): number => Math.floor(uniform() * n);
  // Sparse steps with gaps, so windows may start or end between logged steps.
  const steps = Array.from({ length: 1 + pick(40) }, (_, i) => i * 3 + pick(3));
  const episodeFlagSteps = new Map<number, number | null>();
  const flags = Array.from({ length: pick(200) }, (_, flagId): BrowseFlag => {
    const scope = ['run', 'episode', 'step', 'step'][pick(4)] ?? 'step';
    const from = pick(130) - 5;
    if (scope === 'episode') episodeFlagSteps.set(flagId, uniform() < 0.1 ? null : (steps[pick(steps.length)] ?? 0));
    return {
      flagId,
      kind: 'idle',
      agent: uniform() < 0.1 ? null : (agents[pick(agents.length)] ?? null),
      scope,
      scopeId: String(flagId),
      steps: scope === 'step' ? (uniform() < 0.05 ? null : [from, from + pick(20)]) : null,
      score: null,
      evidence: {},
      location: null,
    };
  });
  return {
    runId: 1,
    method: 'loo',
    status: 'computed',
    epsilon: 0.02,
    coverage: { episodes: 0, drawn: 0, approximate: 0, notIdentifiable: 0, failed: 0, reason: null, remedy: null },
    colour: { domain: { bound: 1, reward: null }, unidentifiedSteps: [] },
    agents: agents.map((name, agentId) => ({ agentId, name })),
    steps: steps.map((step) => ({ step, episodes: 1, meanReward: null })),
    credit: [],
    flags,
    episodeFlagSteps,
  };
}

test('flag counts per agent and step equal the covering flags counted one cell at a time (300 seeded runs)', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const input = seededInput(seed);
    const counts = runOverview(input).flagCounts;
    const expected = agents.flatMap((agent) => input.steps.map((s) => coveringFlags(input, agent, s.step)));
    assert.deepEqual(counts.values, expected, `seed ${String(seed)}`);
  }
});

test('a window between two logged steps covers neither; one on a logged step covers it', () => {
  const input = seededInput(7);
  const flag = (flagId: number, steps: [number, number]): BrowseFlag => ({
    flagId,
    kind: 'idle',
    agent: 'solver',
    scope: 'step',
    scopeId: '',
    steps,
    score: null,
    evidence: {},
    location: null,
  });
  const steps = [10, 20, 30].map((step) => ({ step, episodes: 1, meanReward: null }));
  const o = runOverview({ ...input, steps, flags: [flag(1, [11, 19]), flag(2, [20, 20]), flag(3, [25, 99])] });
  assert.deepEqual(o.flagCounts.values.slice(3, 6), [0, 1, 1]);
});
