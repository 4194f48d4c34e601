import type { AgentDecl, Episode } from '../../core/episode';
import { currentFormatVersion, type RunManifest } from '../../core/runManifest';
import { drawProblem } from '../arithmeticProblems';
import { episodeIdentity } from '../episodeIdentity';
import { grpoAdvantages } from '../grpoAdvantages';
import { createRandom, deriveSeed } from '../random';
import { stepGame, type LatentGame } from './latentGame';
import { scenarioMessages } from './scenarioMessages';
import { coalitionRecords, scenarioOutcome } from './scenarioOutcome';
import { fadeAt, scenarioName, scenarioPlan, type ScenarioPlan } from './scenarioPlan';

/** The behaviour injected into one agent of a scenario (credit-methods.md §5.2). */
export type InjectedRole = 'honest' | 'idle' | 'free-rider' | 'silent' | 'dominant';

/** A seeded audit scenario: a team whose agents have ground-truth roles. */
export interface ScenarioSpec {
  readonly seed: number;
  /** 2..5 agents. */
  readonly teamSize: number;
  readonly mechanism: 'pipeline' | 'vote';
  /** 0..0.3: probability that a counterfactual success is flipped to a failure (see scenarioOutcome). */
  readonly noise: number;
  /** One role per agent, in speaking order. */
  readonly roles: readonly InjectedRole[];
  readonly steps: number;
  readonly groupsPerStep: number;
  readonly samplesPerGroup: number;
  /** Inject reward–cooperation decoupling: the team reward rises while agent `agent`'s contribution fades from step `from` on. */
  readonly decoupling?: { readonly agent: number; readonly from: number };
}

/** A verdict a correct auditor should reach; `steps` (inclusive) when it holds only in part of the run. */
export interface GroundTruth {
  readonly kind: 'idle' | 'free-rider' | 'silent' | 'dominant' | 'decoupling';
  readonly agent: string;
  readonly steps?: readonly [number, number];
}

const problemStream = 24;
const textStream = 25;

/**
 * The scenario's episodes in step, group, sample order: every episode logs the team reward (0/1),
 * one replayed "remove" counterfactual per agent, the full coalition table (2^n values, v(∅) = 0)
 * and the shared-reward GRPO advantage of every agent that speaks. Pure and seeded: the same spec
 * always yields the same episodes. Throws a RangeError on an invalid spec (see scenarioPlan).
 */
export function* scenarioEpisodes(spec: ScenarioSpec): Generator<Episode> {
  const plan = scenarioPlan(spec);
  const roster = scenarioRoster(plan);
  for (let step = 1; step <= spec.steps; step++) {
    const game = stepGame(plan, step);
    for (let group = 0; group < spec.groupsPerStep; group++) yield* scenarioGroup(plan, roster, game, step, group);
  }
}

/** The run.json of the scenario: roster and mechanism, no roles (the auditor must find them). */
export function scenarioManifest(spec: ScenarioSpec): RunManifest {
  const plan = scenarioPlan(spec);
  const { seed, steps, groupsPerStep, samplesPerGroup, noise } = spec;
  return {
    format: 'credit-lens',
    version: currentFormatVersion,
    name: scenarioName(spec),
    mechanism: spec.mechanism,
    agents: scenarioRoster(plan),
    framework: 'verl',
    algorithm: 'magrpo',
    metadata: {
      generator: 'credit-lens audit scenario',
      dataset: 'arithmetic word problems (GSM8K-like)',
      seed,
      steps,
      groupsPerStep,
      samplesPerGroup,
      noise,
    },
  };
}

/**
 * The verdicts a correct auditor reaches on the scenario (credit-methods.md §5.2): each idle,
 * free-rider and silent agent by its role; a dominant agent, and its partners as free-riders; the
 * only contributor of a team (its Shapley share is 1, so it is a sole performer) as dominant; for
 * decoupling, `decoupling` over [from, steps], and `free-rider` over [zeroAt, steps] where the
 * fading agent's contribution is 0 (plus `dominant` over that range for a lone remaining partner).
 */
export function scenarioTruth(spec: ScenarioSpec): GroundTruth[] {
  const plan = scenarioPlan(spec);
  const name = (i: number): string => plan.names[i] ?? '';
  const truth: GroundTruth[] = [];
  for (const [i, role] of plan.roles.entries()) if (role !== 'honest') truth.push({ kind: role, agent: name(i) });
  const only = plan.contributors.length === 1 ? plan.contributors[0] : undefined;
  if (only !== undefined && plan.roles[only] === 'honest') truth.push({ kind: 'dominant', agent: name(only) });
  if (plan.fade) {
    const { agent, from, zeroAt } = plan.fade;
    truth.push({ kind: 'decoupling', agent: name(agent), steps: [from, spec.steps] });
    truth.push({ kind: 'free-rider', agent: name(agent), steps: [zeroAt, spec.steps] });
    const partners = plan.contributors.filter((j) => j !== agent);
    if (partners.length === 1)
      truth.push({ kind: 'dominant', agent: name(partners[0] ?? 0), steps: [zeroAt, spec.steps] });
  }
  return truth;
}

/** Trainable LoRA policies on one base model; the description is neutral about the role. */
function scenarioRoster(plan: ScenarioPlan): AgentDecl[] {
  const job =
    plan.spec.mechanism === 'vote'
      ? 'Solves the problem independently and votes with #### N.'
      : 'One stage of the pipeline; may end with #### N.';
  return plan.names.map((name) => ({
    name,
    kind: 'llm',
    policy: `qwen2.5-1.5b-lora-${name}`,
    trainable: true,
    description: job,
  }));
}

function* scenarioGroup(
  plan: ScenarioPlan,
  roster: readonly AgentDecl[],
  game: LatentGame,
  step: number,
  group: number,
): Generator<Episode> {
  const { seed, groupsPerStep, samplesPerGroup } = plan.spec;
  const problem = drawProblem(createRandom(deriveSeed(seed, problemStream, step, group)));
  const outcomes = Array.from({ length: samplesPerGroup }, (_, sample) =>
    scenarioOutcome(plan, game, { step, group, sample }),
  );
  const advantages = grpoAdvantages(outcomes.map((o) => o.reward));
  const fade = fadeAt(plan, step);
  for (const [sample, outcome] of outcomes.entries()) {
    const transcript = scenarioMessages(
      plan,
      problem,
      outcome,
      fade,
      createRandom(deriveSeed(seed, textStream, step, group, sample)),
    );
    const advantage = advantages[sample] ?? 0;
    const speakers = new Set(transcript.messages.map((m) => m.agent));
    yield {
      ...episodeIdentity(step, group, sample, groupsPerStep, problem.text),
      agents: roster,
      messages: transcript.messages,
      final: transcript.final,
      reward: outcome.reward,
      // Shared-reward MAGRPO: every agent with tokens in the episode is trained on the team advantage.
      advantages: Object.fromEntries(plan.names.filter((n) => speakers.has(n)).map((n) => [n, advantage])),
      ...coalitionRecords(plan.names, outcome.values),
      groundTruth: String(problem.answer),
      metadata: { temperature: 0.8, template: problem.template },
    };
  }
}
