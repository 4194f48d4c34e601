import type { Problem } from './arithmeticProblems';
import { explainedEquation, inverseEquation, stepEquation } from './arithmeticText';
import { stepInput, type WorkedSolution } from './workedSolution';

/**
 * A solver's message: the computation step by step, ending with `#### N`. `opening` is the first
 * line (it says whether the solver follows a plan, redoes a flagged step, …). Verbose text is a
 * 1–2 KB chain of thought with the working shown and a self-check that, like real models, also
 * "confirms" a slipped step.
 */
export function solverText(problem: Problem, solution: WorkedSolution, opening: string, verbose: boolean): string {
  if (verbose) return verboseSolverText(problem, solution, opening);
  const lines = problem.steps.map((s, i) => `Step ${i + 1}: ${stepEquation(problem, solution, i)} (${s.label}).`);
  return `${opening}\n${lines.join('\n')}\nThe answer is ${solution.answer}.\n#### ${solution.answer}`;
}

/** A terse answer with the equations on one line, as a fast, cheap expert writes it. */
export function terseSolverText(problem: Problem, solution: WorkedSolution): string {
  const equations = problem.steps.map((_, i) => stepEquation(problem, solution, i));
  return `${equations.join(', ')}.\n#### ${solution.answer}`;
}

function verboseSolverText(problem: Problem, solution: WorkedSolution, opening: string): string {
  const last = problem.steps[problem.steps.length - 1];
  const parts = [
    `${opening}\n\nProblem: ${problem.text}`,
    `What we know:\n${problem.facts.map((f) => `- ${f}`).join('\n')}\n\nWe are asked for the ${last?.label ?? problem.unit}. I'll go one step at a time and keep every intermediate result, because a slip early on carries into everything after it.`,
    ...problem.steps.map((_, i) => verboseStep(problem, solution, i)),
    `Let me double-check each step by undoing it:\n${selfCheck(problem, solution)}`,
    `Sanity check: every quantity here is a whole number of ${problem.unit}, and ${solution.answer} is a whole number, so the result has the right form. It is also in a reasonable range for the numbers given.`,
    `So the answer is ${solution.answer} ${problem.unit}.\n#### ${solution.answer}`,
  ];
  return parts.join('\n\n');
}

function verboseStep(problem: Problem, solution: WorkedSolution, index: number): string {
  const s = problem.steps[index];
  if (s === undefined) return '';
  const input = stepInput(problem, solution.values, index);
  const result = solution.values[index] ?? 0;
  const working = explainedEquation(s.op, input, s.operand, result);
  return `Step ${index + 1}: ${s.plan}\nNow the ${s.label}. ${working}. That gives ${result} ${s.label}.`;
}

function selfCheck(problem: Problem, solution: WorkedSolution): string {
  return problem.steps
    .map(
      (s, i) =>
        `- ${inverseEquation(s.op, stepInput(problem, solution.values, i), s.operand, solution.values[i] ?? 0)} ✓`,
    )
    .join('\n');
}
