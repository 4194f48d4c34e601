import { applyOperation, operationSymbol, type Operation, type Problem } from './arithmeticProblems';
import { stepInput, type WorkedSolution } from './workedSolution';

/** `36 + 7 = 43` for step `index` of a worked solution (the written result, right or wrong). */
export function stepEquation(problem: Problem, solution: WorkedSolution, index: number): string {
  const s = problem.steps[index];
  if (s === undefined) return '';
  return `${stepInput(problem, solution.values, index)} ${operationSymbol(s.op)} ${s.operand} = ${solution.values[index] ?? 0}`;
}

/**
 * The equation with the working a model shows in a long chain of thought: tens and units for
 * products and sums, the multiplication check for a quotient. The partial results are always right;
 * only the written result (and the claim that backs it) can carry a slip, which is how arithmetic
 * slips look in real outputs.
 */
export function explainedEquation(op: Operation, left: number, right: number, result: number): string {
  const symbol = operationSymbol(op);
  const tens = right - (right % 10);
  const units = right % 10;
  if (op === 'mul' && tens > 0 && units > 0) {
    return `${left} × ${right} = ${left} × ${tens} + ${left} × ${units} = ${left * tens} + ${left * units} = ${result}`;
  }
  if ((op === 'add' || op === 'sub') && tens > 0 && units > 0) {
    const partial = applyOperation(op, left, tens);
    const verb = op === 'add' ? 'adding' : 'taking away';
    return `${left} ${symbol} ${right} = ${result} (${verb} ${tens} gives ${partial}, then ${units} more gives ${result})`;
  }
  // A slipped quotient comes with the false claim that it multiplies back, as real slips do.
  if (op === 'div') return `${left} ÷ ${right} = ${result}, since ${right} × ${result} = ${left}`;
  return `${left} ${symbol} ${right} = ${result}`;
}

/** The inverse operation a model uses to "double-check" a step: `43 - 7 = 36`. */
export function inverseEquation(op: Operation, left: number, right: number, result: number): string {
  if (op === 'add') return `${result} - ${right} = ${left}`;
  if (op === 'sub') return `${result} + ${right} = ${left}`;
  if (op === 'mul') return `${result} ÷ ${right} = ${left}`;
  return `${result} × ${right} = ${left}`;
}

/** Lower-cases the first letter, to embed a plan line in a sentence. */
export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
