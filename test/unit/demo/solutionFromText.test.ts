import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { drawProblem, parseProblem } from '../../../src/demo/arithmeticProblems';
import { createRandom } from '../../../src/demo/random';
import { markedAnswer, solutionFromText } from '../../../src/demo/solutionFromText';
import { solverText, terseSolverText } from '../../../src/demo/solverText';
import { correctSolution, slippedSolution } from '../../../src/demo/workedSolution';

describe('parseProblem', () => {
  it('parseProblem(text) reads back every drawn problem of every template', () => {
    const rng = createRandom(3);
    const templates = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const problem = drawProblem(rng);
      templates.add(problem.template);
      assert.deepEqual(parseProblem(problem.text), problem);
      assert.deepEqual(parseProblem(`  ${problem.text}\n`), problem);
    }
    assert.equal(templates.size, 6);
  });

  it('parseProblem(text) is undefined for text no template writes', () => {
    const problem = drawProblem(createRandom(4));
    assert.equal(parseProblem(problem.text.replace(/\d+/, '1000 and 1')), undefined);
    assert.equal(parseProblem('What is 2 + 2?'), undefined);
    assert.equal(parseProblem(''), undefined);
  });
});

describe('solutionFromText', () => {
  it('solutionFromText(problem, text) recovers the written results of terse, step-by-step and long solutions', () => {
    const rng = createRandom(9);
    for (let i = 0; i < 300; i++) {
      const problem = drawProblem(rng);
      for (const solution of [correctSolution(problem), slippedSolution(problem, rng)]) {
        for (const text of [
          solverText(problem, solution, 'Following the plan:', false),
          solverText(problem, solution, 'Go.', true),
          terseSolverText(problem, solution),
        ]) {
          assert.deepEqual(solutionFromText(problem, text), solution, text);
        }
      }
    }
  });

  it('solutionFromText(problem, text) is undefined without a #### answer; markedAnswer reads the last one', () => {
    const problem = drawProblem(createRandom(2));
    assert.equal(solutionFromText(problem, 'No idea.'), undefined);
    assert.equal(markedAnswer('#### 3 then #### -4\n'), -4);
    assert.equal(markedAnswer('#### none'), undefined);
  });
});
