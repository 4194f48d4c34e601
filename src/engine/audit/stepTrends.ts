import type { AuditFlag, StepTrend } from '../../core/auditReport';
import { creditShares } from '../../credit/audit/creditShare';
import type { EpisodeFacts } from './auditFacts';

/**
 * Per training step: the team reward, each agent's share of the positive mean credit, its idle
 * rate (episodes where it spoke but |credit| ≤ ε) and the number of flags covering that step.
 */
export function stepTrends(
  episodes: readonly EpisodeFacts[],
  agents: readonly string[],
  flags: readonly AuditFlag[],
  epsilon: number,
): StepTrend[] {
  const bySteps = new Map<number, EpisodeFacts[]>();
  for (const e of episodes) {
    const list = bySteps.get(e.step);
    if (list) list.push(e);
    else bySteps.set(e.step, [e]);
  }
  return [...bySteps.keys()]
    .sort((a, b) => a - b)
    .map((step) => {
      const list = bySteps.get(step) ?? [];
      const credit = agents.map((agent) =>
        meanOf(
          list.flatMap((e) =>
            e.agents.filter((a) => a.name === agent && a.credit !== null).map((a) => a.credit as number),
          ),
        ),
      );
      const shares = credit.every((c) => c === null) ? undefined : creditShares(credit.map((c) => c ?? 0));
      const entries = agents.map(
        (agent, i) =>
          [
            agent,
            {
              creditShare: shares ? (shares[i] ?? 0) : null,
              idleRate: idleRate(list, agent, epsilon),
              flags: flags.filter((f) => f.agent === agent && f.steps && f.steps[0] <= step && step <= f.steps[1])
                .length,
            },
          ] as const,
      );
      return {
        step,
        episodes: list.length,
        teamReward: meanOf(list.flatMap((e) => (e.reward === null ? [] : [e.reward]))) ?? 0,
        agents: Object.fromEntries(entries),
      };
    });
}

function idleRate(episodes: readonly EpisodeFacts[], agent: string, epsilon: number): number | null {
  const spoke = episodes.flatMap((e) =>
    e.agents.filter((a) => a.name === agent && a.messages > 0 && a.credit !== null),
  );
  if (spoke.length === 0) return null;
  return spoke.filter((a) => Math.abs(a.credit as number) <= epsilon).length / spoke.length;
}

export function meanOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}
