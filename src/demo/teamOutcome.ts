import type { CoalitionValue, Counterfactual } from '../core/episode';
import type { LearningCurves } from './learningCurves';
import type { Random } from './random';
import type { TeamTextOutcome } from './teamMessages';

/** The agents of the pipeline, in speaking order. */
export const teamAgentNames = ['planner', 'solver', 'verifier'] as const;

/** The latent outcome of one team episode with its logged counterfactuals and coalition values. */
export interface TeamOutcome extends TeamTextOutcome {
  /** The solver, without the plan, gets the answer right. */
  readonly soloCorrect: boolean;
  readonly reward: number;
  readonly counterfactuals: readonly Counterfactual[];
  readonly coalitions: readonly CoalitionValue[];
}

/**
 * Draws one episode's outcome with common random numbers: `u` decides the solver (right with the plan
 * if u < accWithPlan, right alone if u < accNoPlan) and `w` the verifier (corrects a wrong answer if
 * w < catchRate, writes real checks if w < engagement). Using the same u and w in every coalition
 * makes the counterfactuals consistent: removing an agent changes only what that agent did.
 */
export function teamOutcome(curves: LearningCurves, step: number, rng: Random): TeamOutcome {
  const u = rng.next();
  const w = rng.next();
  const solverCorrect = u < curves.accWithPlan(step);
  const soloCorrect = u < curves.accNoPlan(step);
  const catches = w < curves.catchRate(step);
  const score = (planner: boolean, solver: boolean, verifier: boolean): number =>
    // Without the solver nobody computes an answer; the verifier's correction needs a solution to check.
    solver && ((planner ? solverCorrect : soloCorrect) || (verifier && catches)) ? 1 : 0;
  const reward = score(true, true, true);
  return {
    solverCorrect,
    soloCorrect,
    catches,
    engaged: w < curves.engagement(step),
    reward,
    counterfactuals: [
      { intervention: 'remove', agents: ['planner'], reward: score(false, true, true), replayed: true },
      { intervention: 'remove', agents: ['solver'], reward: score(true, false, true), replayed: true },
      { intervention: 'remove', agents: ['verifier'], reward: score(true, true, false), replayed: false },
    ],
    coalitions: allCoalitions(score),
  };
}

/** v(S) for all 8 subsets of the three agents, ordered by bit mask (∅ first, the full team last). */
function allCoalitions(score: (planner: boolean, solver: boolean, verifier: boolean) => number): CoalitionValue[] {
  const coalitions: CoalitionValue[] = [];
  for (let mask = 0; mask < 8; mask++) {
    const agents = teamAgentNames.filter((_, i) => (mask & (1 << i)) !== 0);
    coalitions.push({ agents, value: score((mask & 1) !== 0, (mask & 2) !== 0, (mask & 4) !== 0) });
  }
  return coalitions;
}
