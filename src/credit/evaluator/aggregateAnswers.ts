/** One present message's extracted answer, in message order. `agent` is a roster index. */
export interface AgentAnswer {
  readonly agent: number;
  /** The normalised answer read from the message; undefined when it states none. */
  readonly answer: string | undefined;
}

/**
 * How the present agents' answers combine into the team's answer (credit-methods.md §6.2, E4):
 * `last`: the last message that states an answer ("last boxed answer wins", pipelines);
 * `vote`: majority over each agent's final answer, ties broken toward the earliest agent or
 * resolved to no answer; `selected`: the routed expert's final answer.
 */
export type AggregationRule =
  | { readonly kind: 'last' }
  | { readonly kind: 'vote'; readonly ties: 'earliest' | 'none' }
  | { readonly kind: 'selected'; readonly agent: number };

/**
 * The team's final answer from the present agents' answers under `rule`, or undefined when there is
 * none. An agent's final answer is the answer of its last message that states one; agents that
 * state none do not vote. Vote ties (several answers with the top count) go to the answer of the
 * agent whose first message comes earliest (`ties: 'earliest'`) or give no answer
 * (`ties: 'none'`). The tie rule defines the game: with answers 42, 42, 17 and gold 42, agents 1 and
 * 3 alone score 1 under `earliest` and 0 under `none` (E4). Answers compare as exact strings, so
 * normalise them first. An empty list gives undefined under every rule.
 */
export function aggregateAnswers(answers: readonly AgentAnswer[], rule: AggregationRule): string | undefined {
  switch (rule.kind) {
    case 'last':
      return lastAnswer(answers);
    case 'selected':
      return finalAnswers(answers).get(rule.agent);
    case 'vote':
      return majority(finalAnswers(answers), rule.ties);
  }
}

/** Each agent's last stated answer, keyed by agent in order of the agent's first message. */
function finalAnswers(answers: readonly AgentAnswer[]): Map<number, string | undefined> {
  const finals = new Map<number, string | undefined>();
  for (const { agent, answer } of answers) {
    if (!finals.has(agent)) finals.set(agent, undefined);
    if (answer !== undefined) finals.set(agent, answer);
  }
  return finals;
}

function majority(finals: Map<number, string | undefined>, ties: 'earliest' | 'none'): string | undefined {
  const counts = new Map<string, number>();
  for (const answer of finals.values()) if (answer !== undefined) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  const leaders = [...counts].filter(([, count]) => count === top).map(([answer]) => answer);
  // Maps iterate in insertion order, so `leaders[0]` is the answer of the earliest agent among them.
  return leaders.length === 1 || ties === 'earliest' ? leaders[0] : undefined;
}

function lastAnswer(answers: readonly AgentAnswer[]): string | undefined {
  for (let k = answers.length - 1; k >= 0; k--) {
    const answer = answers[k]?.answer;
    if (answer !== undefined) return answer;
  }
  return undefined;
}
