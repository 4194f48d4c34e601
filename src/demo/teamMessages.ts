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
    const plan = messages.length;
    messages.push(
      connected(
        assistantMessage('planner', plan, plannerText(problem, round, flagged, verbose)),
        // A revised plan draws on the verifier's correction; otherwise the planner reads only the task.
        flagged !== undefined ? [[plan - 1, correctionWeight]] : [],
      ),
      connected(
        assistantMessage('solver', plan + 1, solverText(problem, solution, solverOpening(round, flagged), verbose)),
        [[plan, planWeight]],
      ),
      connected(assistantMessage('verifier', plan + 2, verifierText(problem, solution, mode, verbose, rng)), [
        [plan + 1, mode === 'echo' ? echoWeight : checkWeight],
      ]),
    );
    answer = verifierAnswer(problem, solution, mode);
    flagged = mode === 'correct' ? solution.slipStep : undefined;
    fixed ||= mode === 'correct';
  }
  return { messages, answer };
}

// The demo's logged attribution weights (AgentChord-style, docs/trace-format.md §2.2): how much a
// message draws on the one it answers. The verifier's messages are drawn on only when it corrects.
const planWeight = 0.8;
const checkWeight = 0.9;
const echoWeight = 0.2;
const correctionWeight = 1;

/** `message` with its logged connections to earlier messages (`[index, weight]` pairs); unchanged when there are none. */
function connected(message: Message, links: readonly (readonly [number, number])[]): Message {
  if (links.length === 0) return message;
  return { ...message, connections: links.map(([seq]) => seq), weights: links.map(([, weight]) => weight) };
}

/** What the verifier does with a solution that is `wrong` or not: corrects it when it catches a wrong one, else echoes unless engaged. */
export function verifierMode(wrong: boolean, outcome: Pick<TeamTextOutcome, 'catches' | 'engaged'>): VerifierMode {
  if (wrong && outcome.catches) return 'correct';
  if (!outcome.engaged) return 'echo';
  return wrong ? 'miss' : 'check';
}

/** The solver's first line in round `round` (1-based), after the verifier flagged step `flagged` (0-based) or not, with a plan or without. */
export function solverOpening(round: number, flagged: number | undefined, planned = true): string {
  if (round === 1) return planned ? 'Following the plan:' : 'There is no plan, so I will work it out from the problem:';
  if (flagged !== undefined)
    return `The verifier found a mistake in step ${flagged + 1}, so I'll redo the calculation:`;
  return 'Recomputing every step from scratch:';
}
