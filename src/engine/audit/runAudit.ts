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
 * `free-rider`, `dominant` and `decoupling` from marginal contributions when the credit pass
 * produced them, otherwise listed in `unreachable` with the reason.
 */
export function buildRunAudit(run: string, method: string, episodes: readonly EpisodeFacts[], thresholds: AuditThresholds, creditProblem?: string): RunAudit {
  const agents = agentOrder(episodes);
  const hasCredit = episodes.some((e) => e.agents.some((a) => a.credit !== null));
  const epsilon = thresholds.epsilon ?? 0.02;
  const flags = [...silentFlags(episodes)];
  const unreachable: string[] = [];
  if (hasCredit) flags.push(...windowFlags(episodes, agents, thresholds));
  else unreachable.push(`idle, free-rider, dominant and decoupling need marginal contributions (${method}): ${creditProblem ?? 'none could be computed'}`);
  const preliminary = stepTrends(episodes, agents, flags, epsilon);
  if (hasCredit) flags.push(...decouplingFlags(preliminary, agents, episodes, thresholds, flags));
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
