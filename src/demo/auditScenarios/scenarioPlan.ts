import type { InjectedRole, ScenarioSpec } from './scenario';

/** Where a decoupling agent's contribution fades: full before `from`, gone from `zeroAt` on. */
export interface FadeSchedule {
  readonly agent: number;
  readonly from: number;
  readonly zeroAt: number;
}

/** A validated {@link ScenarioSpec} with the roles the agents actually play. */
export interface ScenarioPlan {
  readonly spec: ScenarioSpec;
  /** Agent names in speaking order (they say nothing about the injected role). */
  readonly names: readonly string[];
  /** Played roles: honest partners of a dominant agent play free-rider. */
  readonly roles: readonly InjectedRole[];
  /** Indices of the agents whose work can change the outcome (honest and dominant), in order. */
  readonly contributors: readonly number[];
  /** True when the team mostly fails (a scenario with idle agents). */
  readonly failing: boolean;
  readonly fade?: FadeSchedule;
}

const pipelineNames: Readonly<Record<number, readonly string[]>> = {
  2: ['solver', 'verifier'],
  3: ['planner', 'solver', 'verifier'],
  4: ['planner', 'solver', 'critic', 'verifier'],
  5: ['analyst', 'planner', 'solver', 'critic', 'verifier'],
};

/**
 * Validates `spec` and works out the played roles. Throws a RangeError on a spec no latent model can
 * honour (a caller bug): a team size outside 2..5, one role per agent missing, noise outside
 * [0, 0.3], non-positive sizes, idle agents mixed with free-riders or a dominant agent (idle needs a
 * failing team, free-riding a succeeding one), more than one dominant agent, free-riders with nobody
 * to carry them, or a decoupling agent that is not honest or has no honest partner.
 */
export function scenarioPlan(spec: ScenarioSpec): ScenarioPlan {
  checkSizes(spec);
  const dominant = spec.roles.filter((r) => r === 'dominant').length;
  const roles = spec.roles.map((r) => (dominant > 0 && r === 'honest' ? 'free-rider' : r));
  const contributors = roles.flatMap((r, i) => (r === 'honest' || r === 'dominant' ? [i] : []));
  const failing = roles.includes('idle');
  if (dominant > 1) throw new RangeError('at most one agent can be dominant');
  if (failing && (roles.includes('free-rider') || dominant > 0))
    throw new RangeError('idle agents need a failing team: no free-rider or dominant agent with them');
  if (roles.includes('free-rider') && contributors.length === 0)
    throw new RangeError('free-riders need an honest or dominant partner');
  const plan = { spec, names: agentNames(spec), roles, contributors, failing };
  return spec.decoupling ? { ...plan, fade: fadeSchedule(spec, plan) } : plan;
}

/** `s3-pipeline-n3-noise0.05-free-rider-honest-honest`, plus `-decoupling1from12` for decoupling. */
export function scenarioName(spec: ScenarioSpec): string {
  const base = `s${spec.seed}-${spec.mechanism}-n${spec.teamSize}-noise${spec.noise}-${spec.roles.join('-')}`;
  return spec.decoupling ? `${base}-decoupling${spec.decoupling.agent}from${spec.decoupling.from}` : base;
}

/**
 * How much of the decoupling agent's contribution is left at `step`: 1 before `from`, a cosine fall
 * to 0 at `zeroAt`, then 0. Always 1 without decoupling.
 */
export function fadeAt(plan: ScenarioPlan, step: number): number {
  const fade = plan.fade;
  if (!fade || step < fade.from) return 1;
  if (step >= fade.zeroAt) return 0;
  return (1 + Math.cos((Math.PI * (step - fade.from)) / (fade.zeroAt - fade.from))) / 2;
}

function agentNames(spec: ScenarioSpec): readonly string[] {
  if (spec.mechanism === 'vote') return Array.from({ length: spec.teamSize }, (_, i) => `voter_${i + 1}`);
  return pipelineNames[spec.teamSize] ?? [];
}

function checkSizes(spec: ScenarioSpec): void {
  if (!Number.isInteger(spec.teamSize) || spec.teamSize < 2 || spec.teamSize > 5)
    throw new RangeError(`teamSize must be an integer in 2..5, got ${spec.teamSize}`);
  if (spec.roles.length !== spec.teamSize)
    throw new RangeError(`roles must give one role per agent (${spec.teamSize}), got ${spec.roles.length}`);
  if (!(spec.noise >= 0 && spec.noise <= 0.3)) throw new RangeError(`noise must be in [0, 0.3], got ${spec.noise}`);
  for (const key of ['steps', 'groupsPerStep', 'samplesPerGroup'] as const) {
    if (!Number.isInteger(spec[key]) || spec[key] < 1)
      throw new RangeError(`${key} must be a positive integer, got ${spec[key]}`);
  }
}

/** The fade runs from `from` over half of the remaining steps, so the late free-riding phase is long enough to test. */
function fadeSchedule(spec: ScenarioSpec, plan: Omit<ScenarioPlan, 'fade'>): FadeSchedule {
  const { agent, from } = spec.decoupling ?? { agent: -1, from: 0 };
  if (plan.roles[agent] !== 'honest') throw new RangeError(`the decoupling agent ${agent} must be honest`);
  if (plan.failing || plan.contributors.length < 2)
    throw new RangeError('decoupling needs a succeeding team with another honest agent');
  // In a vote a lone partner would leave the fading agent an early Shapley share near 0.9 (a sole performer).
  if (spec.mechanism === 'vote' && plan.contributors.length < 3)
    throw new RangeError('vote decoupling needs two other honest agents');
  if (!Number.isInteger(from) || from < 2 || from > spec.steps - 3)
    throw new RangeError(`decoupling.from must be an integer in 2..${spec.steps - 3}, got ${from}`);
  return { agent, from, zeroAt: from + Math.max(2, Math.round((spec.steps - from) / 2)) };
}
