import type { CoalitionValue, Counterfactual, Episode, FinalAnswer, Label, RoutingDecision } from '../../core/episode';

/** A decoded episode without its references to agents outside its roster, and one warning per reference left out. */
export interface CheckedEpisode {
  readonly episode: Episode;
  /** `counterfactuals[1].agents names "critic", who is not in the roster (planner, solver); that counterfactual was not indexed`. */
  readonly warnings: readonly string[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Roster names shown in a warning; longer rosters end with `… and N more`. */
const shownNames = 12;

/**
 * Checks every agent reference of a decoded episode (final answer, per-agent rewards and
 * advantages, routing, counterfactuals, coalitions, labels) against its roster: the declared
 * agents and the speakers (docs/trace-format.md §2.3). What names an agent outside the roster is
 * left out of the returned episode (a copy; `e` is not changed) with a warning naming the field
 * and the agent: a counterfactual, a coalition value, a reward, an advantage or the routing
 * decision is dropped; a final answer or a label keeps everything but its agent.
 */
export function checkAgentReferences(e: Episode): CheckedEpisode {
  if (!refersToAgents(e)) return { episode: e, warnings: [] };
  const roster = new RosterCheck(e);
  const checked: Mutable<Episode> = { ...e };
  if (e.final) checked.final = checkFinal(e.final, roster);
  if (e.agentRewards)
    checked.agentRewards = checkRecord(e.agentRewards, 'agentRewards', 'that reward was not indexed', roster);
  if (e.advantages)
    checked.advantages = checkRecord(e.advantages, 'advantages', 'that advantage was not indexed', roster);
  if (e.routing && !routingIsKnown(e.routing, roster)) delete checked.routing;
  if (e.counterfactuals)
    checked.counterfactuals = e.counterfactuals.filter((c, i) => checkCounterfactual(c, i, roster));
  if (e.coalitions) checked.coalitions = e.coalitions.filter((c, i) => checkCoalition(c, i, roster));
  if (e.labels) checked.labels = e.labels.map((l, i) => checkLabel(l, i, roster));
  if (roster.warnings.length === 0) return { episode: e, warnings: [] };
  return { episode: checked, warnings: roster.warnings };
}

function refersToAgents(e: Episode): boolean {
  return (
    e.final?.agent !== undefined ||
    e.agentRewards !== undefined ||
    e.advantages !== undefined ||
    e.routing !== undefined ||
    e.counterfactuals !== undefined ||
    e.coalitions !== undefined ||
    e.labels !== undefined
  );
}

/** The roster of one episode (declared agents, then speakers in order of first message) and the warnings so far. */
class RosterCheck {
  readonly warnings: string[] = [];
  private readonly names = new Set<string>();

  constructor(e: Episode) {
    for (const agent of e.agents) this.names.add(agent.name);
    for (const message of e.messages) this.names.add(message.agent);
  }

  /** True when every name is in the roster; otherwise records a warning for `path` ending with `outcome`. */
  knows(path: string, names: readonly string[], outcome: string): boolean {
    const unknown = [...new Set(names)].filter((name) => !this.names.has(name));
    if (unknown.length === 0) return true;
    const who = unknown.length === 1 ? 'who is' : 'who are';
    this.warnings.push(
      `${path} names ${unknown.map((n) => JSON.stringify(n)).join(', ')}, ${who} not in the roster (${this.describe()}); ${outcome}`,
    );
    return false;
  }

  private describe(): string {
    if (this.names.size === 0) return 'it is empty';
    const names = [...this.names];
    const more = names.length > shownNames ? `, … and ${names.length - shownNames} more` : '';
    return names.slice(0, shownNames).join(', ') + more;
  }
}

function checkFinal(final: FinalAnswer, roster: RosterCheck): FinalAnswer {
  if (
    final.agent === undefined ||
    roster.knows('final.agent', [final.agent], 'the final answer was indexed without its agent')
  )
    return final;
  return { answer: final.answer };
}

function checkRecord(
  values: Readonly<Record<string, number>>,
  path: string,
  outcome: string,
  roster: RosterCheck,
): Record<string, number> {
  const kept: Record<string, number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (roster.knows(path, [name], outcome)) kept[name] = value;
  }
  return kept;
}

/** The router's, the behaviour router's and the selected experts must all be in the roster, or the decision is left out. */
function routingIsKnown(routing: RoutingDecision, roster: RosterCheck): boolean {
  const outcome = 'the routing decision was not indexed';
  if (!roster.knows('routing.selected', [routing.selected], outcome)) return false;
  if (!roster.knows('routing.probs', Object.keys(routing.probs), outcome)) return false;
  return (
    routing.behaviourProbs === undefined ||
    roster.knows('routing.behaviourProbs', Object.keys(routing.behaviourProbs), outcome)
  );
}

function checkCounterfactual(c: Counterfactual, i: number, roster: RosterCheck): boolean {
  return roster.knows(`counterfactuals[${i}].agents`, c.agents, 'that counterfactual was not indexed');
}

function checkCoalition(c: CoalitionValue, i: number, roster: RosterCheck): boolean {
  return roster.knows(`coalitions[${i}].agents`, c.agents, 'that coalition value was not indexed');
}

function checkLabel(label: Label, i: number, roster: RosterCheck): Label {
  if (
    label.agent === undefined ||
    roster.knows(`labels[${i}].agent`, [label.agent], 'the label was indexed without its agent')
  )
    return label;
  const { agent: _agent, ...rest } = label;
  return rest;
}
