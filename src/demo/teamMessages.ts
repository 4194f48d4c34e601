import type { Message } from '../core/episode';
import type { Problem } from './arithmeticProblems';
import { assistantMessage } from './demoMessage';
import { plannerText } from './plannerText';
import type { Random } from './random';
import { solverText } from './solverText';
import { verifierAnswer, verifierText, type VerifierMode } from './verifierText';
import { correctSolution, slippedSolution } from './workedSolution';

/** The latent outcome of one team episode that the text must agree with. */
export interface TeamTextOutcome {
  /** The solver, given the plan, gets the answer right. */
  readonly solverCorrect: boolean;
  /** The verifier corrects a wrong solution. */
  readonly catches: boolean;
  /** The verifier writes real checks (else it echoes). */
  readonly engaged: boolean;
}

/** The messages of one episode and the answer of its last message. */
export interface TeamTranscript {
  readonly messages: readonly Message[];
  readonly answer: number;
}

/**
 * Writes `rounds` plan → solve → verify rounds. A correction in one round is taken up by the next
 * round's planner and solver, so the final answer is the same whatever the number of rounds: the
 * gold answer when the solver is right or the verifier catches the slip, the slipped answer
 * otherwise. That keeps the text consistent with the logged rewards and counterfactuals.
 */
export function teamMessages(
  problem: Problem,
  outcome: TeamTextOutcome,
  rounds: number,
  verbose: boolean,
  rng: Random,
): TeamTranscript {
  const slipped = outcome.solverCorrect ? undefined : slippedSolution(problem, rng);
  const messages: Message[] = [];
  let flagged: number | undefined;
  let fixed = false;
  let answer = problem.answer;
  for (let round = 1; round <= rounds; round++) {
    const solution = slipped === undefined || fixed ? correctSolution(problem) : slipped;
    const mode = verifierMode(solution === slipped, outcome);
    messages.push(
      assistantMessage('planner', messages.length, plannerText(problem, round, flagged, verbose)),
      assistantMessage(
        'solver',
        messages.length + 1,
        solverText(problem, solution, solverOpening(round, flagged), verbose),
      ),
      assistantMessage('verifier', messages.length + 2, verifierText(problem, solution, mode, verbose, rng)),
    );
    answer = verifierAnswer(problem, solution, mode);
    flagged = mode === 'correct' ? solution.slipStep : undefined;
    fixed ||= mode === 'correct';
  }
  return { messages, answer };
}

function verifierMode(wrong: boolean, outcome: TeamTextOutcome): VerifierMode {
  if (wrong && outcome.catches) return 'correct';
  if (!outcome.engaged) return 'echo';
  return wrong ? 'miss' : 'check';
}

function solverOpening(round: number, flagged: number | undefined): string {
  if (round === 1) return 'Following the plan:';
  if (flagged !== undefined)
    return `The verifier found a mistake in step ${flagged + 1}, so I'll redo the calculation:`;
  return 'Recomputing every step from scratch:';
}
