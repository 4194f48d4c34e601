import type { ChatMessage, ChatRequest } from '../core/chat';
import { parseProblem, type Problem } from './arithmeticProblems';
import { demoRoleOf, type DemoRole } from './demoPrompts';
import { seedLuck, type DemoLuck } from './demoSeed';
import { plannerText } from './plannerText';
import { createRandom, deriveSeed } from './random';
import { solutionFromText } from './solutionFromText';
import { solverText, terseSolverText } from './solverText';
import { solverOpening, verifierMode } from './teamMessages';
import { verifierText } from './verifierText';
import { correctSolution, slippedSolution, type WorkedSolution } from './workedSolution';

/** What one demo agent's turn is played from. */
interface Turn {
  readonly problem: Problem;
  readonly seed: number;
  readonly luck: DemoLuck;
  /** The messages after the system prompt and the task, in order. */
  readonly conversation: readonly ChatMessage[];
}

// Purposes of derived seeds: the slip a wrong solver makes and the words of an echo.
const slipStream = 1;
const echoStream = 2;

const players: Readonly<Record<DemoRole, (turn: Turn) => string>> = {
  planner: (t) => plannerText(t.problem, ownTurns(t) + 1, flaggedStep(t.conversation), false),
  solver: playSolver,
  verifier: playVerifier,
  fast: (t) => terseSolverText(t.problem, solutionWithLuck(t, t.luck.first)),
  careful: (t) => solverText(t.problem, solutionWithLuck(t, t.luck.second), 'Let me solve this step by step.', false),
};

/**
 * The demo's agents as a deterministic model server would play them (docs/replay.md): the reply to
 * one chat request, from the conversation it carries. The agent is recognised by its system prompt
 * (else by the model id's suffix, `…-solver`), the problem is read back from the task (the first
 * unnamed user message), and the request's seed decides the agent's luck (demoSeed.ts), so a replay
 * with an episode's logged seed reproduces the logged outcome. The planner writes the plan (revised
 * after a correction); the solver is right with a plan when its luck says so, likewise without
 * one, and always after the verifier corrected it; the verifier corrects a wrong solution when it
 * catches it, echoes when it is not engaged (the idle verifier of late steps stays idle) and has
 * nothing to check without a solution; the routed experts answer alone. Pure: the same request
 * always gets the same reply.
 */
export function playDemoAgent(request: ChatRequest): string {
  const messages = request.messages;
  const role = demoRoleOf(messages[0]?.role === 'system' ? messages[0].content : undefined, request.model);
  if (role === undefined) return `I am none of the demo's agents (model "${request.model}").`;
  const taskIndex = taskIndexOf(messages);
  const problem = taskIndex < 0 ? undefined : parseProblem(messages[taskIndex]?.content ?? '');
  if (problem === undefined) return "I only solve the demo's arithmetic word problems, and this conversation has none.";
  const seed = request.sampling.seed ?? 0;
  const conversation = messages.slice(taskIndex + 1).filter((m) => m.role !== 'system');
  return players[role]({ problem, seed, luck: seedLuck(seed), conversation });
}

function playSolver(t: Turn): string {
  const planned = t.conversation.some((m) => m.name === 'planner');
  const corrected = t.conversation.some((m) => m.name === 'verifier' && m.content.includes('Corrected answer'));
  const solution = solutionWithLuck(t, corrected || (planned ? t.luck.first : t.luck.second));
  return solverText(t.problem, solution, solverOpening(ownTurns(t) + 1, flaggedStep(t.conversation), planned), false);
}

function playVerifier(t: Turn): string {
  const latest = [...t.conversation].reverse().find((m) => m.name === 'solver');
  const solution = latest === undefined ? undefined : solutionFromText(t.problem, latest.content);
  if (solution === undefined) return 'There is no solution to check.';
  const mode = verifierMode(solution.answer !== t.problem.answer, t.luck);
  return verifierText(t.problem, solution, mode, false, createRandom(deriveSeed(t.seed, echoStream)));
}

function solutionWithLuck(t: Turn, right: boolean): WorkedSolution {
  return right ? correctSolution(t.problem) : slippedSolution(t.problem, createRandom(deriveSeed(t.seed, slipStream)));
}

function ownTurns(t: Turn): number {
  return t.conversation.filter((m) => m.role === 'assistant').length;
}

/** The step (0-based) the verifier's latest message says is wrong, if it says so. */
function flaggedStep(conversation: readonly ChatMessage[]): number | undefined {
  const latest = [...conversation].reverse().find((m) => m.name === 'verifier');
  const step = latest === undefined ? undefined : /Step (\d+) is wrong/.exec(latest.content)?.[1];
  return step === undefined ? undefined : Number(step) - 1;
}

/** The task: the first user message without a speaker's name, else the first user message. */
function taskIndexOf(messages: readonly ChatMessage[]): number {
  const unnamed = messages.findIndex((m) => m.role === 'user' && m.name === undefined);
  return unnamed >= 0 ? unnamed : messages.findIndex((m) => m.role === 'user');
}
