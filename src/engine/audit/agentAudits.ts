import type { AgentAudit, AuditFlag } from '../../core/auditReport';
import { creditShares } from '../../credit/audit/creditShare';
import { pairedStatistics } from '../../credit/stats/pairedStatistics';
import type { EpisodeFacts } from './auditFacts';
import { meanOf } from './stepTrends';

/** Per-agent standing over the run: mean credit with a 95% interval, shares, behaviour rates, flags. */
export function agentAudits(
  episodes: readonly EpisodeFacts[],
  agents: readonly string[],
  flags: readonly AuditFlag[],
): AgentAudit[] {
  const totalTokens = episodes.reduce((s, e) => s + e.agents.reduce((t, a) => t + a.tokens, 0), 0);
  const perAgent = agents.map((agent) => episodes.flatMap((e) => e.agents.filter((a) => a.name === agent)));
  const means = perAgent.map((list) => meanOf(list.flatMap((a) => (a.credit === null ? [] : [a.credit]))));
  const shares = means.every((m) => m === null) ? undefined : creditShares(means.map((m) => m ?? 0));
  return agents.map((agent, i) => {
    const list = perAgent[i] ?? [];
    const credit = list.flatMap((a) => (a.credit === null ? [] : [a.credit]));
    const messages = list.reduce((s, a) => s + a.messages, 0);
    return {
      agent,
      episodes: list.length,
      meanCredit: means[i] ?? null,
      ci: interval(credit),
      creditShare: shares ? (shares[i] ?? 0) : null,
      tokenShare: totalTokens > 0 ? list.reduce((s, a) => s + a.tokens, 0) / totalTokens : 0,
      emptyRate: rate(
        list.map((a) => a.emptyMessages),
        messages,
      ),
      copyRate: rate(
        list.map((a) => a.copiedMessages),
        messages,
      ),
      finalAnswerShare:
        list.some((a) => a.finalAnswerFirst === null) || list.length === 0
          ? null
          : list.filter((a) => a.finalAnswerFirst).length / list.length,
      flags: [...new Set(flags.filter((f) => f.agent === agent).map((f) => f.kind))],
    };
  });
}

/** The normal 95% interval of the mean (credit/stats/pairedStatistics); null for fewer than two values. */
function interval(values: readonly number[]): readonly [number, number] | null {
  const stats = pairedStatistics(values);
  return stats.n < 2 ? null : stats.ci95;
}

function rate(counts: readonly (number | null)[], messages: number): number | null {
  if (messages === 0 || counts.some((c) => c === null)) return null;
  return counts.reduce<number>((s, c) => s + (c ?? 0), 0) / messages;
}
