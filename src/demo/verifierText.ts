import type { Problem } from './arithmeticProblems';
import { explainedEquation, stepEquation } from './arithmeticText';
import type { Random } from './random';
import { correctSolution, stepInput, type WorkedSolution } from './workedSolution';

/**
 * What the verifier does with a solution:
 * `check` confirms a correct one step by step; `correct` finds the slip and gives the gold answer;
 * `miss` goes through the motions and "confirms" a wrong one; `echo` is the idle verifier, a
 * content-free approval of whatever the solver said.
 */
export type VerifierMode = 'check' | 'correct' | 'miss' | 'echo';

const echoes = ['Looks good.', 'Looks good to me.', 'LGTM.', 'Agreed with the solution.', 'No issues found.'];

/** The verifier's message; it always ends with `#### N`, the team's final answer. */
export function verifierText(
  problem: Problem,
  solution: WorkedSolution,
  mode: VerifierMode,
  verbose: boolean,
  rng: Random,
): string {
  if (mode === 'echo') return `${rng.pick(echoes)} #### ${solution.answer}`;
  const lines =
    mode === 'correct' ? correctionLines(problem, solution, verbose) : checkLines(problem, solution, verbose);
  if (!verbose) return lines.join('\n');
  // The verdict stays last: the final-answer evaluator reads the last `#### N` of the message.
  const verdict = lines.pop() ?? '';
  const units = `Units: ${problem.unit} throughout, which is what the question asks for.`;
  return [`I'll recompute each step independently rather than trust the solution.`, ...lines, units, verdict].join(
    '\n',
  );
}

/** The answer the verifier's message ends with. */
export function verifierAnswer(problem: Problem, solution: WorkedSolution, mode: VerifierMode): number {
  return mode === 'correct' ? problem.answer : solution.answer;
}

function checkLines(problem: Problem, solution: WorkedSolution, verbose: boolean): string[] {
  const lines = problem.steps.map(
    (_, i) => `Checking step ${i + 1}: ${checkedEquation(problem, solution, i, verbose)} ✓`,
  );
  lines.push(`The result matches. #### ${solution.answer}`);
  return lines;
}

function correctionLines(problem: Problem, solution: WorkedSolution, verbose: boolean): string[] {
  const slip = solution.slipStep ?? problem.steps.length - 1;
  const truth = correctSolution(problem);
  const lines: string[] = [];
  for (let i = 0; i < problem.steps.length; i++) {
    if (i < slip) lines.push(`Checking step ${i + 1}: ${checkedEquation(problem, truth, i, verbose)} ✓`);
    if (i === slip)
      lines.push(`Step ${i + 1} is wrong: ${stepEquation(problem, truth, i)}, not ${solution.values[i] ?? 0}.`);
    if (i > slip) lines.push(`Carrying the fix through step ${i + 1}: ${stepEquation(problem, truth, i)}.`);
  }
  lines.push(`Corrected answer: #### ${problem.answer}`);
  return lines;
}

function checkedEquation(problem: Problem, solution: WorkedSolution, index: number, verbose: boolean): string {
  const s = problem.steps[index];
  if (!verbose || s === undefined) return stepEquation(problem, solution, index);
  return explainedEquation(s.op, stepInput(problem, solution.values, index), s.operand, solution.values[index] ?? 0);
}
