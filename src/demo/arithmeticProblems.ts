import type { Random } from './random';

/** One arithmetic operation of a word problem. */
export type Operation = 'add' | 'sub' | 'mul' | 'div';

/** One step of a problem's solution: `previous op operand`. */
export interface ProblemStep {
  readonly op: Operation;
  readonly operand: number;
  /** The planner's line for this step. */
  readonly plan: string;
  /** What the step's result counts, e.g. "muffins in the boxes". */
  readonly label: string;
}

/** A GSM8K-like word problem with an integer answer. */
export interface Problem {
  readonly template: string;
  readonly text: string;
  /** The givens, as a planner would list them. */
  readonly facts: readonly string[];
  /** The first number; step 1 combines it with its operand. */
  readonly start: number;
  readonly steps: readonly ProblemStep[];
  /** The planner's last line. */
  readonly report: string;
  readonly unit: string;
  readonly answer: number;
}

type ProblemSpec = Omit<Problem, 'answer'>;

const step = (op: Operation, operand: number, plan: string, label: string): ProblemStep => ({
  op,
  operand,
  plan,
  label,
});

function bakery(rng: Random): ProblemSpec {
  const [a, b, c] = [rng.int(2, 9), rng.pick([6, 8, 10, 12, 24]), rng.int(1, 15)];
  return {
    template: 'bakery',
    text: `A baker sells ${a} boxes of ${b} muffins and ${c} single muffins. How many muffins does the baker sell in total?`,
    facts: [`${a} boxes`, `${b} muffins per box`, `${c} single muffins`],
    start: a,
    steps: [
      step('mul', b, `Multiply the ${a} boxes by ${b} muffins each.`, 'muffins in the boxes'),
      step('add', c, `Add the ${c} single muffins.`, 'muffins sold'),
    ],
    report: 'Report the total.',
    unit: 'muffins',
  };
}

function library(rng: Random): ProblemSpec {
  const [a, b] = [rng.int(3, 12), rng.int(15, 40)];
  const c = rng.int(5, Math.floor((a * b) / 2));
  return {
    template: 'library',
    text: `A library has ${a} shelves with ${b} books on each shelf. On Monday it lends out ${c} books. How many books are still on the shelves?`,
    facts: [`${a} shelves`, `${b} books per shelf`, `${c} books lent out`],
    start: a,
    steps: [
      step('mul', b, `Multiply the ${a} shelves by ${b} books per shelf.`, 'books at the start'),
      step('sub', c, `Subtract the ${c} books that were lent out.`, 'books still on the shelves'),
    ],
    report: 'Report the number of books left.',
    unit: 'books',
  };
}

function garden(rng: Random): ProblemSpec {
  const [a, b, d] = [rng.int(3, 9), rng.int(6, 20), rng.int(2, 25)];
  const c = rng.int(3, Math.floor((a * b) / 3));
  return {
    template: 'garden',
    text: `A gardener plants ${a} rows of ${b} tulips. A storm destroys ${c} of them, and she plants ${d} new ones. How many tulips are in the garden now?`,
    facts: [`${a} rows`, `${b} tulips per row`, `${c} tulips destroyed`, `${d} new tulips`],
    start: a,
    steps: [
      step('mul', b, `Multiply the ${a} rows by ${b} tulips per row.`, 'tulips planted'),
      step('sub', c, `Subtract the ${c} tulips destroyed by the storm.`, 'tulips left after the storm'),
      step('add', d, `Add the ${d} new tulips.`, 'tulips in the garden'),
    ],
    report: 'Report the final count.',
    unit: 'tulips',
  };
}

function orchard(rng: Random): ProblemSpec {
  const [a, b, d] = [rng.int(4, 15), rng.int(20, 60), rng.int(5, 40)];
  const c = rng.int(10, Math.floor((a * b) / 4));
  return {
    template: 'orchard',
    text: `An orchard has ${a} trees and each tree gives ${b} apples. The farmer sells ${c} apples at the market and buys ${d} more from a neighbour. How many apples does the farmer have now?`,
    facts: [`${a} trees`, `${b} apples per tree`, `${c} apples sold`, `${d} apples bought`],
    start: a,
    steps: [
      step('mul', b, `Multiply the ${a} trees by ${b} apples per tree.`, 'apples harvested'),
      step('sub', c, `Subtract the ${c} apples sold at the market.`, 'apples left after the market'),
      step('add', d, `Add the ${d} apples bought from the neighbour.`, 'apples the farmer has'),
    ],
    report: 'Report the number of apples.',
    unit: 'apples',
  };
}

/** `total − c` is a positive multiple of `d`, so the division step is exact. */
function exactRemainder(rng: Random, total: number, d: number, maxMultiple: number): number {
  const rest = total % d;
  return rest + d * rng.int(1, Math.max(1, Math.min(maxMultiple, Math.floor((total - rest) / d / 2))));
}

function savings(rng: Random): ProblemSpec {
  const [a, b, d] = [rng.int(5, 25), rng.int(4, 12), rng.int(2, 5)];
  const c = exactRemainder(rng, a * b, d, 40);
  return {
    template: 'savings',
    text: `Tom saves $${a} every week for ${b} weeks. He spends $${c} on a bike and shares the rest equally among his ${d} sisters. How many dollars does each sister get?`,
    facts: [`$${a} per week`, `${b} weeks`, `$${c} spent on a bike`, `${d} sisters`],
    start: a,
    steps: [
      step('mul', b, `Multiply the $${a} saved each week by ${b} weeks.`, 'dollars saved'),
      step('sub', c, `Subtract the $${c} spent on the bike.`, 'dollars left after the bike'),
      step('div', d, `Divide what is left equally among the ${d} sisters.`, 'dollars per sister'),
    ],
    report: 'Report the amount each sister gets.',
    unit: 'dollars',
  };
}

function teams(rng: Random): ProblemSpec {
  const [a, b, d] = [rng.int(3, 8), rng.int(18, 32), rng.pick([3, 4, 5, 6])];
  const c = exactRemainder(rng, a * b, d, 3);
  return {
    template: 'teams',
    text: `A school has ${a} classes of ${b} students. ${c} students are absent today, and the students who are present are split into teams of ${d}. How many teams are there?`,
    facts: [`${a} classes`, `${b} students per class`, `${c} students absent`, `teams of ${d}`],
    start: a,
    steps: [
      step('mul', b, `Multiply the ${a} classes by ${b} students per class.`, 'students in the school'),
      step('sub', c, `Subtract the ${c} absent students.`, 'students present'),
      step('div', d, `Divide the students present into teams of ${d}.`, 'teams'),
    ],
    report: 'Report the number of teams.',
    unit: 'teams',
  };
}

const templates: readonly ((rng: Random) => ProblemSpec)[] = [bakery, library, garden, orchard, savings, teams];

/** Draws a problem from one of six templates with random numbers; the answer is a positive integer. */
export function drawProblem(rng: Random): Problem {
  const spec = rng.pick(templates)(rng);
  const values = stepValues(spec.start, spec.steps);
  return { ...spec, answer: values[values.length - 1] ?? spec.start };
}

/** `left op right`; division is integer division because every template divides exactly. */
export function applyOperation(op: Operation, left: number, right: number): number {
  if (op === 'add') return left + right;
  if (op === 'sub') return left - right;
  if (op === 'mul') return left * right;
  return Math.trunc(left / right);
}

/** The result of each step in order (the last one is the answer). */
export function stepValues(start: number, steps: readonly ProblemStep[]): number[] {
  const values: number[] = [];
  let value = start;
  for (const s of steps) {
    value = applyOperation(s.op, value, s.operand);
    values.push(value);
  }
  return values;
}

/** The symbol a model writes for `op`. */
export function operationSymbol(op: Operation): string {
  return { add: '+', sub: '-', mul: '×', div: '÷' }[op];
}
