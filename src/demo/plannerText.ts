import type { Problem } from './arithmeticProblems';
import { lowerFirst } from './arithmeticText';

/**
 * A planner's message for round `round` (1-based). Round 1 is the plan itself; a later round either
 * targets the step the verifier flagged (`flaggedStep`, 0-based) or asks for a recomputation. The
 * planner never writes `#### N`, so a final-answer parser cannot mistake it for an answer.
 */
export function plannerText(
  problem: Problem,
  round: number,
  flaggedStep: number | undefined,
  verbose: boolean,
): string {
  const text = round === 1 ? firstPlan(problem) : revisedPlan(problem, round, flaggedStep);
  return verbose ? verbosePlan(problem, round, text) : text;
}

function firstPlan(problem: Problem): string {
  const lines = [...problem.steps.map((s) => s.plan), problem.report];
  return `Plan:\n${lines.map((line, i) => `${i + 1}. ${line}`).join('\n')}`;
}

function revisedPlan(problem: Problem, round: number, flaggedStep: number | undefined): string {
  const flagged = flaggedStep === undefined ? undefined : problem.steps[flaggedStep];
  if (flagged === undefined || flaggedStep === undefined) {
    return `Plan for round ${round}:\n1. Recompute every step from scratch.\n2. Compare with the previous result.\n3. ${problem.report}`;
  }
  return `The verifier flagged step ${flaggedStep + 1}. Revised plan:\n1. Redo step ${flaggedStep + 1} carefully: ${lowerFirst(flagged.plan)}\n2. Carry the corrected value through the remaining steps.\n3. ${problem.report}`;
}

function verbosePlan(problem: Problem, round: number, plan: string): string {
  const opening =
    round === 1
      ? `Let me break the problem down before anyone computes anything.\n\nGiven: ${problem.facts.join(', ')}.\nGoal: ${lowerFirst(problem.report).replace(/\.$/, '')}.`
      : `Round ${round}. The previous answer is on the table; the point of this round is to make sure it is right, not to start a new approach.`;
  const notes =
    `Notes for the solver: do the multiplication before any addition or subtraction, keep track of the units (${problem.unit}), ` +
    'write each intermediate result on its own line, and finish with the final number on its own line so it can be checked.';
  return `${opening}\n\n${plan}\n\n${notes}`;
}
