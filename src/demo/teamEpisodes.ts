import type { AgentDecl, Episode } from '../core/episode';
import { currentFormatVersion, type RunManifest } from '../core/runManifest';
import { drawProblem } from './arithmeticProblems';
import { resolveDemoOptions, type DemoOptions, type ResolvedDemoOptions } from './demoOptions';
import { grpoAdvantages } from './grpoAdvantages';
import { learningCurves, type LearningCurves } from './learningCurves';
import { createRandom, deriveSeed } from './random';
import { teamMessages } from './teamMessages';
import { teamAgentNames, teamOutcome } from './teamOutcome';
import { episodeIdentity } from './episodeIdentity';

/** Folder and manifest name of the planner → solver → verifier demo run. */
export const teamRunName = 'planner-solver-verifier';

const descriptions: Record<string, string> = {
  planner: 'Breaks the word problem into numbered steps.',
  solver: 'Carries out the plan and writes the answer as #### N.',
  verifier: 'Checks the solution and gives the final #### N.',
};

/** The pipeline's roster: three trainable LoRA policies on one base model. */
export const teamRoster: readonly AgentDecl[] = teamAgentNames.map((name) => ({
  name,
  kind: 'llm',
  policy: `qwen2.5-1.5b-lora-${name}`,
  trainable: true,
  description: descriptions[name] ?? '',
}));

// Purposes of derived seeds, so the problem, the latent outcome and the wording draw from separate streams.
const problemStream = 1;
const outcomeStream = 2;
const textStream = 3;

/**
 * The team run: multi-agent GRPO on arithmetic word problems, one episode per rollout, in step,
 * group, sample order. Pure and seeded: the same options always yield the same episodes. With the
 * default `freeRider` the verifier's contribution fades to nothing while the team reward rises.
 */
export function* teamEpisodes(options: DemoOptions = {}): Generator<Episode> {
  const resolved = resolveDemoOptions(options, 40, true);
  const curves = learningCurves(resolved.steps, resolved.freeRider);
  let remaining = resolved.episodes;
  for (let step = 1; step <= resolved.steps && remaining > 0; step++) {
    for (let group = 0; group < resolved.groupsPerStep && remaining > 0; group++) {
      const size = Math.min(resolved.samplesPerGroup, remaining);
      yield* teamGroup(resolved, curves, step, group, size);
      remaining -= size;
    }
  }
}

/** The run.json of the team run. */
export function teamManifest(options: DemoOptions = {}): RunManifest {
  const resolved = resolveDemoOptions(options, 40, true);
  return {
    format: 'credit-lens',
    version: currentFormatVersion,
    name: teamRunName,
    mechanism: 'pipeline',
    agents: teamRoster,
    evaluator: { kind: 'builtin', name: 'final-answer', options: { aggregation: 'last' } },
    framework: 'verl',
    algorithm: 'magrpo',
    metadata: runMetadata(resolved),
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
  step: number,
  group: number,
  size: number,
): Generator<Episode> {
  const { seed } = resolved;
  const problem = drawProblem(createRandom(deriveSeed(seed, problemStream, step, group)));
  const outcomes = Array.from({ length: size }, (_, sample) =>
    teamOutcome(curves, step, createRandom(deriveSeed(seed, outcomeStream, step, group, sample))),
  );
  const advantages = grpoAdvantages(outcomes.map((o) => o.reward));
  for (const [sample, outcome] of outcomes.entries()) {
    const textRandom = createRandom(deriveSeed(seed, textStream, step, group, sample));
    const transcript = teamMessages(problem, outcome, resolved.rounds, resolved.verbose, textRandom);
    const advantage = advantages[sample] ?? 0;
    yield {
      ...episodeIdentity(step, group, sample, resolved.groupsPerStep, problem.text),
      agents: teamRoster,
      messages: transcript.messages,
      final: { answer: String(transcript.answer), agent: 'verifier' },
      reward: outcome.reward,
      advantages: { planner: advantage, solver: advantage, verifier: advantage },
      counterfactuals: outcome.counterfactuals,
      coalitions: outcome.coalitions,
      groundTruth: String(problem.answer),
      metadata: { temperature: 0.8, template: problem.template },
    };
  }
}
