import type { AgentDecl, Episode } from '../core/episode';
import { currentFormatVersion, type RunManifest } from '../core/runManifest';
import { drawProblem } from './arithmeticProblems';
import { resolveDemoOptions, type DemoOptions, type ResolvedDemoOptions } from './demoOptions';
import { grpoAdvantages } from './grpoAdvantages';
import { learningCurves, type LearningCurves } from './learningCurves';
import { createRandom, deriveSeed } from './random';
import { teamMessages } from './teamMessages';
import { teamAgentNames, teamOutcome, type TeamOutcome } from './teamOutcome';
import { episodeIdentity } from './episodeIdentity';
import { demoSystemPrompts, verifierDefaultAction } from './demoPrompts';
import { seedFor } from './demoSeed';

/** Folder and manifest name of the planner → solver → verifier demo run. */
export const teamRunName = 'planner-solver-verifier';

/** Folder and manifest name of the same team on the same tasks, trained on each agent's marginal contribution. */
export const creditRunName = 'planner-solver-verifier-credit';

/**
 * What the team was trained on: `shared-reward` (standard multi-agent GRPO, every agent gets the team
 * reward's advantage) or `marginal-contribution` (each agent's advantage is the group-relative
 * advantage of its own leave-one-out contribution, so the verifier keeps being rewarded for checking).
 */
export type TrainingSignal = 'shared-reward' | 'marginal-contribution';

/** Episode id prefix of the marginal-contribution run (its ids never collide with the shared run's). */
const creditIdPrefix = 'credit-';

const descriptions: Record<string, string> = {
  planner: 'Breaks the word problem into numbered steps.',
  solver: 'Carries out the plan and writes the answer as #### N.',
  verifier: 'Checks the solution and gives the final #### N.',
};

/**
 * The pipeline's roster: three trainable LoRA policies on one base model, with their system prompts;
 * the verifier declares a content-free approval as its default action.
 */
export const teamRoster: readonly AgentDecl[] = teamAgentNames.map((name) => ({
  name,
  kind: 'llm',
  policy: `qwen2.5-1.5b-lora-${name}`,
  trainable: true,
  description: descriptions[name] ?? '',
  systemPrompt: demoSystemPrompts[name],
  ...(name === 'verifier' ? { defaultAction: verifierDefaultAction } : {}),
}));

// Purposes of derived seeds, so the problem, the latent outcome and the wording draw from separate streams.
const problemStream = 1;
const outcomeStream = 2;
const textStream = 3;
const samplingSeedStream = 4;

/**
 * The team run: multi-agent GRPO on arithmetic word problems, one episode per rollout, in step,
 * group, sample order. Pure and seeded: the same options always yield the same episodes. With the
 * default `freeRider` the verifier's contribution fades to nothing while the team reward rises.
 * With `signal` `marginal-contribution` (the `-credit` run): the same tasks, prompts and random
 * draws, ids prefixed `credit-`, the verifier's skill keeps improving (no free rider) and each
 * agent logs the advantage of its own contribution.
 */
export function* teamEpisodes(options: DemoOptions = {}, signal: TrainingSignal = 'shared-reward'): Generator<Episode> {
  const resolved = resolveDemoOptions(options, 40, true);
  const curves = learningCurves(resolved.steps, signal === 'shared-reward' && resolved.freeRider);
  let remaining = resolved.episodes;
  for (let step = 1; step <= resolved.steps && remaining > 0; step++) {
    for (let group = 0; group < resolved.groupsPerStep && remaining > 0; group++) {
      const size = Math.min(resolved.samplesPerGroup, remaining);
      yield* teamGroup(resolved, curves, { step, group, size }, signal);
      remaining -= size;
    }
  }
}

/** The run.json of the team run (of the `-credit` run with `signal` `marginal-contribution`). */
export function teamManifest(options: DemoOptions = {}, signal: TrainingSignal = 'shared-reward'): RunManifest {
  const resolved = resolveDemoOptions(options, 40, true);
  return {
    format: 'credit-lens',
    version: currentFormatVersion,
    name: signal === 'shared-reward' ? teamRunName : creditRunName,
    mechanism: 'pipeline',
    agents: teamRoster,
    evaluator: { kind: 'builtin', name: 'final-answer', options: { aggregation: 'last' } },
    framework: 'verl',
    algorithm: 'magrpo',
    metadata: { ...runMetadata(resolved), trainingSignal: signal },
  };
}

function runMetadata(resolved: ResolvedDemoOptions): Record<string, unknown> {
  const { seed, steps, groupsPerStep, samplesPerGroup, rounds } = resolved;
  return {
    generator: 'credit-lens demo',
    dataset: 'arithmetic word problems (GSM8K-like)',
    seed,
    steps,
    groupsPerStep,
    samplesPerGroup,
    rounds,
  };
}

function* teamGroup(
  resolved: ResolvedDemoOptions,
  curves: LearningCurves,
  { step, group, size }: { step: number; group: number; size: number },
  signal: TrainingSignal,
): Generator<Episode> {
  const { seed } = resolved;
  const problem = drawProblem(createRandom(deriveSeed(seed, problemStream, step, group)));
  const outcomes = Array.from({ length: size }, (_, sample) =>
    teamOutcome(curves, step, createRandom(deriveSeed(seed, outcomeStream, step, group, sample))),
  );
  const advantages = agentAdvantages(outcomes, signal);
  for (const [sample, outcome] of outcomes.entries()) {
    const textRandom = createRandom(deriveSeed(seed, textStream, step, group, sample));
    const transcript = teamMessages(problem, outcome, resolved.rounds, resolved.verbose, textRandom);
    const identity = episodeIdentity(step, group, sample, resolved.groupsPerStep, problem.text);
    yield {
      ...identity,
      ...(signal === 'shared-reward' ? {} : { id: `${creditIdPrefix}${identity.id}` }),
      agents: teamRoster,
      messages: transcript.messages,
      final: { answer: String(transcript.answer), agent: 'verifier' },
      reward: outcome.reward,
      advantages: advantages[sample] ?? {},
      counterfactuals: outcome.counterfactuals,
      coalitions: outcome.coalitions,
      groundTruth: String(problem.answer),
      metadata: {
        temperature: 0.8,
        seed: samplingSeed(seed, step, group, sample, outcome),
        template: problem.template,
      },
    };
  }
}

/**
 * Each sample's logged advantage per agent: the group-relative advantage of the team reward for
 * every agent (shared reward), or of the agent's own leave-one-out contribution `R − R^{(−i)}`
 * (marginal contribution), from the outcome's logged removals.
 */
function agentAdvantages(outcomes: readonly TeamOutcome[], signal: TrainingSignal): Record<string, number>[] {
  const perAgent = teamAgentNames.map((agent) =>
    grpoAdvantages(outcomes.map((o) => (signal === 'shared-reward' ? o.reward : contribution(o, agent)))),
  );
  return outcomes.map((_, sample) =>
    Object.fromEntries(teamAgentNames.map((agent, i) => [agent, perAgent[i]?.[sample] ?? 0])),
  );
}

function contribution(outcome: TeamOutcome, agent: string): number {
  const removed = outcome.counterfactuals.find((c) => c.agents.length === 1 && c.agents[0] === agent);
  return removed === undefined ? 0 : outcome.reward - removed.reward;
}

/** The episode's sampling seed: one whose luck (demoSeed.ts) is the outcome drawn, so a replay with it reproduces the episode. */
function samplingSeed(seed: number, step: number, group: number, sample: number, outcome: TeamOutcome): number {
  const luck = {
    first: outcome.solverCorrect,
    second: outcome.soloCorrect,
    catches: outcome.catches,
    engaged: outcome.engaged,
  };
  return seedFor(deriveSeed(seed, samplingSeedStream, step, group, sample), luck);
}
