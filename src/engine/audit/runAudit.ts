import type { RunAudit } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { agentAudits } from './agentAudits';
import type { EpisodeFacts } from './auditFacts';
import { decouplingFlags } from './decouplingFlags';
import { silentFlags } from './silentFlags';
import { stepTrends } from './stepTrends';
import { windowFlags } from './windowFlags';

/**
 * The audit of one run from its episode facts: `silent` from the roster alone; `idle`,
 * `free-rider`, `dominant` and `decoupling` only for trained agents and only from credit that can
 * support a verdict (exact or estimated marginal contributions). Every verdict that could not be
 * reached is listed in `unreachable`, per agent, with the reason and what would answer it.
 */
export function buildRunAudit(
  run: string,
  method: string,
  episodes: readonly EpisodeFacts[],
  thresholds: AuditThresholds,
  creditProblem?: string,
): RunAudit {
  const agents = agentOrder(episodes);
  const trained = agents.filter((agent) => episodes.some((e) => e.agents.some((a) => a.name === agent && a.trainable)));
  const epsilon = thresholds.epsilon ?? 0.02;
  const flags = [...silentFlags(episodes)];
  const unreachable = [
    ...contextNotes(episodes, agents, trained),
    ...missingCredit(episodes, trained, method, creditProblem),
  ];
  const judged = trained.filter((agent) => hasVerdictCredit(episodes, agent));
  if (judged.length > 0) {
    const windows = windowFlags(episodes, judged, thresholds);
    flags.push(...windows.flags);
    unreachable.push(...windows.unreachable);
    const preliminary = stepTrends(episodes, judged, flags, epsilon);
    flags.push(...decouplingFlags(preliminary, judged, episodes, thresholds, flags));
  }
  return {
    run,
    method,
    agents: agentAudits(episodes, agents, flags),
    flags,
    trends: stepTrends(episodes, agents, flags, epsilon),
    unreachable,
  };
}

function agentOrder(episodes: readonly EpisodeFacts[]): string[] {
  const seen = new Set<string>();
  for (const e of episodes) for (const a of e.agents) seen.add(a.name);
  return [...seen];
}

function hasVerdictCredit(episodes: readonly EpisodeFacts[], agent: string): boolean {
  return episodes.some((e) => e.agents.some((a) => a.name === agent && a.credit !== null));
}

/** Agents that are part of the environment (human, tool, user simulator, system prompt, …). */
function contextNotes(
  episodes: readonly EpisodeFacts[],
  agents: readonly string[],
  trained: readonly string[],
): string[] {
  return agents
    .filter((agent) => !trained.includes(agent))
    .map((agent) => {
      const kind = episodes.flatMap((e) => e.agents.filter((a) => a.name === agent))[0]?.kind ?? 'unknown';
      return `idle, free-rider, dominant and decoupling for ${agent}: it is ${kindName(kind)}, not a trained agent; reported as context, never flagged`;
    });
}

/** Trained agents none of whose credit can support a verdict, with why. */
function missingCredit(
  episodes: readonly EpisodeFacts[],
  trained: readonly string[],
  method: string,
  creditProblem: string | undefined,
): string[] {
  const notes: string[] = [];
  for (const agent of trained) {
    if (hasVerdictCredit(episodes, agent)) continue;
    const statuses = new Map<string, number>();
    for (const e of episodes)
      for (const a of e.agents)
        if (a.name === agent) statuses.set(a.creditStatus, (statuses.get(a.creditStatus) ?? 0) + 1);
    const approximate = statuses.get('approximate') ?? 0;
    const why =
      approximate > 0
        ? `its ${method} credit is approximate in ${approximate} episode(s): it was removed without re-generating the agents that read its output; a replay (--evaluator replay:url=…) or logged counterfactuals would answer it`
        : `no ${method} credit could be computed: ${creditProblem ?? 'none of its episodes has the data'}`;
    notes.push(`idle, free-rider, dominant and decoupling for ${agent}: ${why}`);
  }
  return notes;
}

const kindNames: Readonly<Record<string, string>> = {
  human: 'a human',
  tool: 'a tool',
  env: 'an environment',
  user_sim: 'a user simulator',
  system: 'a system prompt',
};

function kindName(kind: string): string {
  return kindNames[kind] ?? `an agent of kind ${kind} marked not trainable`;
}
