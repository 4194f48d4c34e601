import { stepValues, type Problem } from './arithmeticProblems';
import type { WorkedSolution } from './workedSolution';

/** The last `#### N` of a message, or undefined when it states none. */
export function markedAnswer(text: string): number | undefined {
  const marker = text.lastIndexOf('####');
  const match = marker < 0 ? null : /^\s*(-?\d+)/.exec(text.slice(marker + 4));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The worked solution a solver's message writes down (solverText, terseSolverText): each step's
 * result — `Step i: … = N` or, in a long chain of thought, `That gives N` — and the `#### N` answer.
 * A step it does not find takes its correct value; the last step takes the stated answer. Undefined
 * when the message states no answer.
 */
export function solutionFromText(problem: Problem, text: string): WorkedSolution | undefined {
  const answer = markedAnswer(text);
  if (answer === undefined) return undefined;
  const truth = stepValues(problem.start, problem.steps);
  const written = writtenResults(text, truth.length);
  const values = truth.map((v, i) => (i === truth.length - 1 ? answer : (written[i] ?? v)));
  const slip = values.findIndex((v, i) => v !== truth[i]);
  return { values, answer, ...(slip >= 0 ? { slipStep: slip } : {}) };
}

/** The result written for each step: `Step i:` blocks, else the `a op b = c` equations of a terse line. */
function writtenResults(text: string, steps: number): (number | undefined)[] {
  const blocks = text.split(/^Step (?=\d+:)/m).slice(1);
  if (blocks.length > 0) {
    const results: (number | undefined)[] = [];
    for (const block of blocks) {
      const index = Number(/^(\d+):/.exec(block)?.[1]) - 1;
      const result =
        /That gives (-?\d+)/.exec(block)?.[1] ?? /= (-?\d+)(?![\s\S]*= -?\d)/.exec(block.split('\n')[0] ?? '')?.[1];
      if (index >= 0 && index < steps && result !== undefined) results[index] = Number(result);
    }
    return results;
  }
  return [...text.matchAll(/= (-?\d+)/g)].slice(0, steps).map((m) => Number(m[1]));
}
