import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { drawProblem, stepValues } from '../../../src/demo/arithmeticProblems';
import { createRandom } from '../../../src/demo/random';
import { slippedSolution } from '../../../src/demo/workedSolution';

describe('drawProblem', () => {
  it('drawProblem(rng) gives every template a positive integer answer with exact divisions', () => {
    const rng = createRandom(5);
    const templates = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const problem = drawProblem(rng);
      templates.add(problem.template);
      const values = stepValues(problem.start, problem.steps);
      assert.equal(values[values.length - 1], problem.answer);
      assert.ok(Number.isInteger(problem.answer) && problem.answer > 0, problem.text);
      let input = problem.start;
      for (const [i, s] of problem.steps.entries()) {
        if (s.op === 'div') assert.equal(input % s.operand, 0, problem.text);
        input = values[i] ?? 0;
      }
    }
    assert.equal(templates.size, 6);
  });
});

describe('slippedSolution', () => {
  it('slippedSolution(problem, rng) is wrong, near the gold answer, and carries the slip forward', () => {
    const rng = createRandom(11);
    for (let i = 0; i < 2000; i++) {
      const problem = drawProblem(rng);
      const slipped = slippedSolution(problem, rng);
      const truth = stepValues(problem.start, problem.steps);
      const slip = slipped.slipStep ?? -1;
      assert.notEqual(slipped.answer, problem.answer);
      assert.ok(slipped.answer > 0);
      assert.deepEqual(slipped.values.slice(0, slip), truth.slice(0, slip));
      assert.notEqual(slipped.values[slip], truth[slip]);
      assert.ok(
        Math.abs(slipped.answer - problem.answer) <= Math.max(60, problem.answer),
        `${slipped.answer} vs ${problem.answer}`,
      );
    }
  });
});
