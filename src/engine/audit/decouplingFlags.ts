import type { AuditFlag, StepTrend } from '../../core/auditReport';
import type { AuditThresholds } from '../../credit/audit/auditThresholds';
import { decoupling } from '../../credit/audit/decoupling';
import type { TraceLocation } from './stepTrends';

/**
 * `decoupling` over training (credit-methods.md §5.3, the PA-MAGRPO signature): the team reward
 * trends up while an agent's credit share trends down (both Spearman tests significant) AND the
 * agent ends the run idle or free-riding (a flag of those kinds reaching the last step). A share that
 * falls while the agent still contributes is a shift in roles, not "reward rising while a partner
 * idles". One flag per agent, with the step range where its share declines, located at the first
 * episode at or after the decline's first step.
 */
export function decouplingFlags(
  trends: readonly StepTrend[],
  agents: readonly string[],
  locate: (step: number) => TraceLocation | undefined,
  thresholds: AuditThresholds,
  flags: readonly AuditFlag[],
): AuditFlag[] {
  const steps = trends.map((t) => t.step);
  const reward = trends.map((t) => t.teamReward);
  const lastStep = steps[steps.length - 1];
  const raised: AuditFlag[] = [];
  for (const agent of agents) {
    const shares = trends.map((t) => t.agents[agent]?.creditShare ?? null);
    if (shares.some((s) => s === null) || steps.length < 4) continue;
    const endsIdle = flags.some(
      (f) => f.agent === agent && (f.kind === 'idle' || f.kind === 'free-rider') && f.steps?.[1] === lastStep,
    );
    // minShare 0: a share that is small throughout is not a decline (the trend tests decide).
    const found = endsIdle
      ? decoupling(steps, reward, shares as number[], { alpha: thresholds.alpha, minShare: 0 })
      : undefined;
    if (!found) continue;
    const at = locate(found.from);
    raised.push({
      kind: 'decoupling',
      agent,
      scope: 'step',
      steps: [found.from, found.to],
      ...(at ? { location: { uri: at.uri, line: at.line } } : {}),
      evidence: { ...found, score: -found.shareRho },
    });
  }
  return raised;
}
