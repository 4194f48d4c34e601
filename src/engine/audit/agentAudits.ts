import type { AgentAudit, AuditFlag } from '../../core/auditReport';
import { creditShares } from '../../credit/audit/creditShare';
import { pairedStatistics } from '../../credit/stats/pairedStatistics';
import type { EpisodeFacts } from './auditFacts';
import { NumberSeries } from './numberSeries';
import { meanOf } from './stepTrends';

/** One agent over the run so far: what its standing and the audit's notes need. */
interface AgentTotals {
  /** The kind of its first appearance. */
  readonly kind: string;
  trainable: boolean;
  episodes: number;
  tokens: number;
  messages: number;
  /** Its verdict credit (exact or estimated) in episode order: the interval needs every value. */
  readonly credit: NumberSeries;
  readonly statuses: Map<string, number>;
  /** Sums of the text evidence; null once an episode's text could not be read. */
  empty: number | null;
  copied: number | null;
  finalAnswerFirst: number | null;
}

/**
 * Per-agent totals of a run, episode by episode (in id order): agents in order of first
 * appearance, their kinds, credit and behaviour counts. Holds one number per credit value, not the
 * episodes.
 */
export class AgentTally {
  private readonly totals = new Map<string, AgentTotals>();
  private totalTokens = 0;

  add(e: EpisodeFacts): void {
    for (const a of e.agents) {
      const t = this.totals.get(a.name) ?? this.open(a.name, a.kind);
      t.trainable ||= a.trainable;
      t.episodes++;
      t.tokens += a.tokens;
      t.messages += a.messages;
      this.totalTokens += a.tokens;
      if (a.credit !== null) t.credit.push(a.credit);
      t.statuses.set(a.creditStatus, (t.statuses.get(a.creditStatus) ?? 0) + 1);
      t.empty = a.emptyMessages === null || t.empty === null ? null : t.empty + a.emptyMessages;
      t.copied = a.copiedMessages === null || t.copied === null ? null : t.copied + a.copiedMessages;
      t.finalAnswerFirst =
        a.finalAnswerFirst === null || t.finalAnswerFirst === null
          ? null
          : t.finalAnswerFirst + (a.finalAnswerFirst ? 1 : 0);
    }
  }

  /** Agent names in order of first appearance. */
  agents(): string[] {
    return [...this.totals.keys()];
  }

  /** Agents that are trained in at least one episode. */
  trained(): string[] {
    return [...this.totals].filter(([, t]) => t.trainable).map(([agent]) => agent);
  }

  /** The kind of the agent's first appearance. */
  kind(agent: string): string {
    return this.totals.get(agent)?.kind ?? 'unknown';
  }

  /** Whether some value of the agent can support a verdict (exact or estimated). */
  hasVerdictCredit(agent: string): boolean {
    return (this.totals.get(agent)?.credit.length ?? 0) > 0;
  }

  /** Appearances of the agent with credit of `status` (none: no credit row). */
  statusCount(agent: string, status: string): number {
    return this.totals.get(agent)?.statuses.get(status) ?? 0;
  }

  /** Per-agent standing over the run: mean credit with a 95% interval, shares, behaviour rates, flags. */
  audits(flags: readonly AuditFlag[]): AgentAudit[] {
    const agents = this.agents();
    const list = agents.map((agent) => this.totals.get(agent) as AgentTotals);
    const means = list.map((t) => meanOf(t.credit.view()));
    const shares = means.every((m) => m === null) ? undefined : creditShares(means.map((m) => m ?? 0));
    return agents.map((agent, i) => {
      const t = list[i] as AgentTotals;
      return {
        agent,
        episodes: t.episodes,
        meanCredit: means[i] ?? null,
        ci: interval(t.credit.view()),
        creditShare: shares ? (shares[i] ?? 0) : null,
        tokenShare: this.totalTokens > 0 ? t.tokens / this.totalTokens : 0,
        emptyRate: rate(t.empty, t.messages),
        copyRate: rate(t.copied, t.messages),
        finalAnswerShare: t.finalAnswerFirst === null || t.episodes === 0 ? null : t.finalAnswerFirst / t.episodes,
        flags: [...new Set(flags.filter((f) => f.agent === agent).map((f) => f.kind))],
      };
    });
  }

  private open(agent: string, kind: string): AgentTotals {
    const t: AgentTotals = {
      kind,
      trainable: false,
      episodes: 0,
      tokens: 0,
      messages: 0,
      credit: new NumberSeries(),
      statuses: new Map(),
      empty: 0,
      copied: 0,
      finalAnswerFirst: 0,
    };
    this.totals.set(agent, t);
    return t;
  }
}

/** The normal 95% interval of the mean (credit/stats/pairedStatistics); null for fewer than two values. */
function interval(values: ArrayLike<number>): readonly [number, number] | null {
  const stats = pairedStatistics(values);
  return stats.n < 2 ? null : stats.ci95;
}

function rate(count: number | null, messages: number): number | null {
  return messages === 0 || count === null ? null : count / messages;
}
