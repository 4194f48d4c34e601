import type { FinalAnswer, Message } from '../../core/episode';
import type { Problem } from '../arithmeticProblems';
import { assistantMessage } from '../demoMessage';
import { plannerText } from '../plannerText';
import type { Random } from '../random';
import { solverText } from '../solverText';
import { verifierText } from '../verifierText';
import { correctSolution, slippedSolution, type WorkedSolution } from '../workedSolution';
import type { ScenarioOutcome } from './scenarioOutcome';
import type { ScenarioPlan } from './scenarioPlan';

/** The messages of one scenario episode and its final answer. */
export interface ScenarioTranscript {
  readonly messages: readonly Message[];
  readonly final: FinalAnswer;
}

/** How an agent writes in one episode. */
type Voice = 'contributor' | 'idle' | 'free-rider' | 'silent';

const agreements: readonly ((answer: number) => string)[] = [
  (a) => `Looks good. #### ${a}`,
  (a) => `I agree with the solution above. #### ${a}`,
  (a) => `No changes needed. #### ${a}`,
  (a) => `LGTM. #### ${a}`,
  (a) => `Agreed, the answer is ${a}. #### ${a}`,
];
const openers = [
  'Sounds good, go ahead.',
  'I agree with the approach.',
  "Let's solve this step by step.",
  'OK, over to you.',
];
const echoRate = 0.3;
const finalPattern = /#### (-?\d+)\s*$/;

/**
 * Writes one episode's messages, consistent with its outcome: contributors write plans and worked
 * solutions (right exactly when their latent work is right, and the pipeline's last solution is the
 * team's answer); idle agents write normal-length, content-bearing text nobody uses (a wrong attempt
 * or a check that confirms whatever is on the table); free-riders write short content-free approvals
 * or echo a partner verbatim; silent agents write nothing. A decoupling agent writes like a
 * free-rider in episodes where it is a null player, with probability `1 − fade`.
 */
export function scenarioMessages(
  plan: ScenarioPlan,
  problem: Problem,
  outcome: ScenarioOutcome,
  fade: number,
  rng: Random,
): ScenarioTranscript {
  const voices = plan.roles.map((role, i): Voice => {
    if (i === plan.fade?.agent && (outcome.nulls & (1 << i)) !== 0 && rng.next() < 1 - fade) return 'free-rider';
    return role === 'honest' || role === 'dominant' ? 'contributor' : role;
  });
  const messages =
    plan.spec.mechanism === 'vote'
      ? voteMessages(plan, problem, outcome, voices, rng)
      : pipelineMessages(plan, problem, outcome, voices, rng);
  return {
    messages,
    final: voteFinal(plan, problem, outcome, messages) ??
      lastAnswer(messages) ?? { answer: String(problem.answer + 1) },
  };
}

/** Pipeline state while the messages are written in order. */
interface PipelineState {
  solution?: WorkedSolution;
  planned: boolean;
  chainRight: boolean;
}

function pipelineMessages(
  plan: ScenarioPlan,
  problem: Problem,
  outcome: ScenarioOutcome,
  voices: readonly Voice[],
  rng: Random,
): Message[] {
  const slipped = slippedSolution(problem, rng);
  const writers = voices.flatMap((voice, i) => (voice === 'contributor' ? [i] : []));
  const messages: Message[] = [];
  const state: PipelineState = { planned: false, chainRight: true };
  for (const [i, voice] of voices.entries()) {
    if (voice === 'silent') continue;
    let text: string;
    if (voice === 'contributor') {
      state.chainRight &&= outcome.right[i] ?? false;
      text = contributorText(problem, { writers, i, reward: outcome.reward, slipped }, state);
    } else if (voice === 'idle') {
      text = idleText(problem, state.solution, rng);
    } else {
      text = freeRiderText(messages[messages.length - 1], state.solution?.answer, rng);
    }
    messages.push(assistantMessage(plan.names[i] ?? '', messages.length, text));
  }
  return messages;
}

/** The first of several writers plans; the last writes the team's answer; those between carry the chain. */
function contributorText(
  problem: Problem,
  at: { writers: readonly number[]; i: number; reward: number; slipped: WorkedSolution },
  state: PipelineState,
): string {
  const { writers, i } = at;
  if (i === writers[0] && writers.length > 1) {
    state.planned = true;
    return plannerText(problem, 1, undefined, false);
  }
  const rightSoFar = i === writers[writers.length - 1] ? at.reward === 1 : state.chainRight;
  let opening = 'Let me solve this step by step:';
  if (state.solution) opening = 'Checking the previous solution and recomputing every step:';
  else if (state.planned) opening = 'Following the plan:';
  state.solution = rightSoFar ? correctSolution(problem) : at.slipped;
  return solverText(problem, state.solution, opening, false);
}

function idleText(problem: Problem, solution: WorkedSolution | undefined, rng: Random): string {
  if (!solution) return solverText(problem, slippedSolution(problem, rng), 'Let me try this first:', false);
  return verifierText(problem, solution, solution.answer === problem.answer ? 'check' : 'miss', false, rng);
}

function freeRiderText(previous: Message | undefined, answer: number | undefined, rng: Random): string {
  if (previous && rng.next() < echoRate) return previous.content;
  return answer === undefined ? rng.pick(openers) : rng.pick(agreements)(answer);
}

/** Votes in parallel (turn 0), then free-riders agree with or copy a partner (turn 1). */
function voteMessages(
  plan: ScenarioPlan,
  problem: Problem,
  outcome: ScenarioOutcome,
  voices: readonly Voice[],
  rng: Random,
): Message[] {
  const votes: Message[] = [];
  for (const [i, voice] of voices.entries()) {
    if (voice !== 'contributor' && voice !== 'idle') continue;
    const solution =
      voice === 'contributor' && outcome.right[i] ? correctSolution(problem) : slippedSolution(problem, rng);
    votes.push(assistantMessage(plan.names[i] ?? '', 0, solverText(problem, solution, 'My solution:', false)));
  }
  const partners = votes.filter((m) => plan.contributors.some((j) => plan.names[j] === m.agent));
  const followUps: Message[] = [];
  for (const [i, voice] of voices.entries()) {
    // Every free-rider has a contributor beside it (scenarioPlan), so there is a vote to follow.
    if (voice !== 'free-rider' || votes.length === 0) continue;
    const partner = rng.pick(partners.length > 0 ? partners : votes);
    const answer = lastAnswer([partner])?.answer;
    let text = freeRiderText(partner, answer === undefined ? undefined : Number(answer), rng);
    if (text !== partner.content && answer !== undefined && rng.next() < 0.5)
      text = `I agree with ${partner.agent}. #### ${answer}`;
    followUps.push(assistantMessage(plan.names[i] ?? '', 1, text));
  }
  return [...votes, ...followUps];
}

/** A vote's final answer: the gold answer on success, else the first wrong vote (no quorum when there is none). */
function voteFinal(
  plan: ScenarioPlan,
  problem: Problem,
  outcome: ScenarioOutcome,
  messages: readonly Message[],
): FinalAnswer | undefined {
  if (plan.spec.mechanism !== 'vote') return undefined;
  if (outcome.reward === 1) return { answer: String(problem.answer) };
  const wrong = messages
    .map((m) => finalPattern.exec(m.content)?.[1])
    .find((a) => a !== undefined && a !== String(problem.answer));
  return { answer: wrong ?? 'no quorum' };
}

/** The last `#### N` of the transcript and its author (the pipeline's final answer). */
function lastAnswer(messages: readonly Message[]): FinalAnswer | undefined {
  for (let m = messages.length - 1; m >= 0; m--) {
    const message = messages[m];
    const answer = message ? finalPattern.exec(message.content)?.[1] : undefined;
    if (message && answer !== undefined) return { answer, agent: message.agent };
  }
  return undefined;
}
