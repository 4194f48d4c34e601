import type { AgentDecl, Episode, RoutingDecision } from '../core/episode';
import { currentFormatVersion, type RunManifest } from '../core/runManifest';
import { drawProblem, type Problem } from './arithmeticProblems';
import { assistantMessage } from './demoMessage';
import { resolveDemoOptions, type DemoOptions, type ResolvedDemoOptions } from './demoOptions';
import { grpoAdvantages } from './grpoAdvantages';
import { createRandom, deriveSeed, type Random } from './random';
import { solverText, terseSolverText } from './solverText';
import { workedSolution } from './workedSolution';
import { episodeIdentity } from './episodeIdentity';

/** Folder and manifest name of the routed demo run. */
export const routedRunName = 'routed-experts';

/** The two experts: a cheap one the router prefers and a careful one that is right more often. */
export const routedRoster: readonly AgentDecl[] = [
  { name: 'fast', kind: 'llm', policy: 'qwen2.5-0.5b-lora-fast', trainable: true, description: 'Answers in one line.' },
  {
    name: 'careful',
    kind: 'llm',
    policy: 'qwen2.5-1.5b-lora-careful',
    trainable: true,
    description: 'Works step by step.',
  },
];

// credit-methods.md oracle E5: p ≈ (0.7, 0.3), q ≈ (0.5, 0.9); the worse expert gets most traffic.
const quality = { fast: 0.5, careful: 0.9 };
const meanLogit = Math.log(0.7 / 0.3);
const problemStream = 11;
const sampleStream = 12;

/**
 * The routed run: per rollout a softmax router picks `fast` or `careful`; both write a candidate,
 * only the selected one is delivered and scored (reward 1 when its `#### N` is the gold answer).
 * No counterfactuals are logged: unselected responses are never scored, which is the filter that
 * IPW estimates must undo (credit-methods.md §3.4). Defaults to 20 steps × 8 groups × 4 samples.
 */
export function* routedEpisodes(options: DemoOptions = {}): Generator<Episode> {
  const resolved = resolveDemoOptions(options, 20, false);
  for (let step = 1; step <= resolved.steps; step++) {
    for (let group = 0; group < resolved.groupsPerStep; group++) yield* routedGroup(resolved, step, group);
  }
}

/** The run.json of the routed run. */
export function routedManifest(options: DemoOptions = {}): RunManifest {
  const { seed, steps, groupsPerStep, samplesPerGroup } = resolveDemoOptions(options, 20, false);
  return {
    format: 'credit-lens',
    version: currentFormatVersion,
    name: routedRunName,
    mechanism: 'routed',
    agents: routedRoster,
    evaluator: { kind: 'builtin', name: 'final-answer', options: { aggregation: 'selected' } },
    framework: 'verl',
    algorithm: 'magrpo',
    metadata: {
      generator: 'credit-lens demo',
      dataset: 'arithmetic word problems (GSM8K-like)',
      seed,
      steps,
      groupsPerStep,
      samplesPerGroup,
    },
  };
}

interface RoutedRollout {
  readonly routing: RoutingDecision;
  readonly fast: { readonly answer: number; readonly text: string };
  readonly careful: { readonly answer: number; readonly text: string };
  readonly reward: number;
}

function* routedGroup(resolved: ResolvedDemoOptions, step: number, group: number): Generator<Episode> {
  const problemRandom = createRandom(deriveSeed(resolved.seed, problemStream, step, group));
  const problem = drawProblem(problemRandom);
  // Per-problem preference: some problems look harder to the router and shift traffic to `careful`.
  const problemLogit = meanLogit + 0.5 * problemRandom.normal();
  const rollouts = Array.from({ length: resolved.samplesPerGroup }, (_, sample) =>
    routedRollout(
      problem,
      problemLogit,
      resolved.verbose,
      createRandom(deriveSeed(resolved.seed, sampleStream, step, group, sample)),
    ),
  );
  const advantages = grpoAdvantages(rollouts.map((r) => r.reward));
  for (const [sample, rollout] of rollouts.entries()) {
    const selected = rollout.routing.selected === 'fast' ? rollout.fast : rollout.careful;
    yield {
      ...episodeIdentity(step, group, sample, resolved.groupsPerStep, problem.text),
      agents: routedRoster,
      messages: [assistantMessage('fast', 0, rollout.fast.text), assistantMessage('careful', 0, rollout.careful.text)],
      final: { answer: String(selected.answer), agent: rollout.routing.selected },
      reward: rollout.reward,
      // Selection-gated training: only the delivered response receives the group advantage.
      advantages: { [rollout.routing.selected]: advantages[sample] ?? 0 },
      routing: rollout.routing,
      groundTruth: String(problem.answer),
      metadata: { temperature: 0.8, template: problem.template },
    };
  }
}

function routedRollout(problem: Problem, problemLogit: number, verbose: boolean, rng: Random): RoutedRollout {
  const fastSolution = workedSolution(problem, rng.next() < quality.fast, rng);
  const carefulSolution = workedSolution(problem, rng.next() < quality.careful, rng);
  const fastProbability = Math.round(1e4 / (1 + Math.exp(-(problemLogit + 0.2 * rng.normal())))) / 1e4;
  const probs = { fast: fastProbability, careful: Math.round((1 - fastProbability) * 1e4) / 1e4 };
  const selected = rng.next() < probs.fast ? 'fast' : 'careful';
  const answer = selected === 'fast' ? fastSolution.answer : carefulSolution.answer;
  return {
    routing: { probs, selected },
    fast: { answer: fastSolution.answer, text: terseSolverText(problem, fastSolution) },
    careful: {
      answer: carefulSolution.answer,
      text: solverText(problem, carefulSolution, 'Let me solve this step by step.', verbose),
    },
    reward: answer === problem.answer ? 1 : 0,
  };
}
