import { applyOperation, stepValues, type Problem } from './arithmeticProblems';
import type { Random } from './random';

/** The numbers a solver wrote down, one per step; a wrong solution has one arithmetic slip. */
export interface WorkedSolution {
  /** The result written for each step (the last one is the answer). */
  readonly values: readonly number[];
  readonly answer: number;
  /** Index of the step the solver got wrong; later steps carry the wrong value forward. */
  readonly slipStep?: number;
}

/** The solution without mistakes. */
export function correctSolution(problem: Problem): WorkedSolution {
  return { values: stepValues(problem.start, problem.steps), answer: problem.answer };
}

/**
 * A plausible wrong solution: one step is off by a typical slip (±1, ±2, ±10, or one factor too many
 * or too few in a product) and the error is carried through the remaining steps, so the final answer
 * lands near the gold answer. Slips that would make a later division inexact or a count non-positive
 * are redrawn; after a few tries the last step is simply off by one.
 */
export function slippedSolution(problem: Problem, rng: Random): WorkedSolution {
  const truth = stepValues(problem.start, problem.steps);
  for (let attempt = 0; attempt < 8; attempt++) {
    const index = rng.int(0, truth.length - 1);
    const s = problem.steps[index];
    if (s === undefined) break;
    const deltas = s.op === 'mul' ? [-s.operand, s.operand, -10, 10, -2, 2] : [-10, -2, -1, 1, 2, 10];
    const values = carrySlip(problem, truth, index, (truth[index] ?? 0) + rng.pick(deltas));
    if (values !== undefined) return { values, answer: values[values.length - 1] ?? 0, slipStep: index };
  }
  const last = truth.length - 1;
  const values = truth.map((v, i) => (i === last ? v + 1 : v));
  return { values, answer: problem.answer + 1, slipStep: last };
}

/** A correct solution, or one with a slip drawn from `rng`. */
export function workedSolution(problem: Problem, correct: boolean, rng: Random): WorkedSolution {
  return correct ? correctSolution(problem) : slippedSolution(problem, rng);
}

/** The result written before step `index` (the problem's first number for step 0). */
export function stepInput(problem: Problem, values: readonly number[], index: number): number {
  return index === 0 ? problem.start : (values[index - 1] ?? 0);
}

function carrySlip(problem: Problem, truth: readonly number[], index: number, wrong: number): number[] | undefined {
  const values = [...truth.slice(0, index), wrong];
  for (let i = index + 1; i < problem.steps.length; i++) {
    const s = problem.steps[i];
    const input = values[i - 1] ?? 0;
    if (s === undefined || (s.op === 'div' && input % s.operand !== 0)) return undefined;
    values.push(applyOperation(s.op, input, s.operand));
  }
  const answer = values[values.length - 1] ?? 0;
  return values.every((v) => v > 0) && answer !== problem.answer ? values : undefined;
}
