import type { AuditFlag, StepTrend } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { decoupling } from '../../credit/audit/decoupling';
import type { EpisodeFacts } from './auditFacts';

/**
 * `decoupling` over training (credit-methods.md §5.3, the PA-MAGRPO signature): the team reward
 * trends up while an agent's credit share trends down. One flag per such agent, with the step range
 * where its share declines and both rank correlations as evidence.
 */
export function decouplingFlags(trends: readonly StepTrend[], agents: readonly string[], episodes: readonly EpisodeFacts[], thresholds: AuditThresholds): AuditFlag[] {
  const steps = trends.map((t) => t.step);
  const reward = trends.map((t) => t.teamReward);
  const flags: AuditFlag[] = [];
  for (const agent of agents) {
    const shares = trends.map((t) => t.agents[agent]?.creditShare ?? null);
    if (shares.some((s) => s === null) || steps.length < 4) continue;
    const found = decoupling(steps, reward, shares as number[], { alpha: thresholds.alpha });
    if (!found) continue;
    const at = episodes.find((e) => e.step >= found.from);
    flags.push({
      kind: 'decoupling',
      agent,
      scope: 'step',
      steps: [found.from, found.to],
      ...(at ? { location: { uri: at.uri, line: at.line } } : {}),
      evidence: { ...found, score: -found.shareRho },
    });
  }
  return flags;
}
