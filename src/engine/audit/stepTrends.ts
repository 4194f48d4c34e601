import type { AuditFlag, StepTrend } from '../../core/auditReport';
import { creditShares } from '../../credit/audit/creditShare';
import type { EpisodeFacts } from './auditFacts';

/** Where a flag points: a line of a trace file. */
export interface TraceLocation {
  readonly uri: string;
  readonly line: number;
}

/** One agent at one step: its verdict credit, and the episodes where it spoke (with credit) and was idle. */
interface AgentAtStep {
  creditSum: number;
  creditN: number;
  spoke: number;
  idle: number;
}

/** One training step: the running sums its trend point needs, and its first episode. */
interface StepTotals {
  episodes: number;
  rewardSum: number;
  rewardN: number;
  /** Position in the stream (episode id order) and location of the step's first episode. */
  readonly first: number;
  readonly location: TraceLocation;
  readonly agents: Map<string, AgentAtStep>;
}

/**
 * Per-step sums of a run, episode by episode (in id order): the team reward, each agent's credit
 * and idle count (|credit| ≤ `epsilon` where it spoke). Holds one entry per step × agent.
 */
export class StepTally {
  private readonly steps = new Map<number, StepTotals>();
  private seen = 0;

  constructor(private readonly epsilon: number) {}

  add(e: EpisodeFacts): void {
    const position = this.seen++;
    let totals = this.steps.get(e.step);
    if (!totals) {
      totals = {
        episodes: 0,
        rewardSum: 0,
        rewardN: 0,
        first: position,
        location: { uri: e.uri, line: e.line },
        agents: new Map(),
      };
      this.steps.set(e.step, totals);
    }
    totals.episodes++;
    if (e.reward !== null) {
      totals.rewardSum += e.reward;
      totals.rewardN++;
    }
    for (const a of e.agents) {
      const at = totals.agents.get(a.name) ?? { creditSum: 0, creditN: 0, spoke: 0, idle: 0 };
      totals.agents.set(a.name, at);
      if (a.credit === null) continue;
      at.creditSum += a.credit;
      at.creditN++;
      if (a.messages === 0) continue;
      at.spoke++;
      if (Math.abs(a.credit) <= this.epsilon) at.idle++;
    }
  }

  /**
   * Per training step: the team reward, each agent's share of the positive mean credit, its idle
   * rate (episodes where it spoke but |credit| ≤ ε) and the number of flags covering that step.
   */
  trends(agents: readonly string[], flags: readonly AuditFlag[]): StepTrend[] {
    return [...this.steps.keys()]
      .sort((a, b) => a - b)
      .map((step) => {
        const totals = this.steps.get(step) as StepTotals;
        const credit = agents.map((agent) => {
          const at = totals.agents.get(agent);
          return at && at.creditN > 0 ? at.creditSum / at.creditN : null;
        });
        const shares = credit.every((c) => c === null) ? undefined : creditShares(credit.map((c) => c ?? 0));
        const entries = agents.map((agent, i) => {
          const at = totals.agents.get(agent);
          const point = {
            creditShare: shares ? (shares[i] ?? 0) : null,
            idleRate: at && at.spoke > 0 ? at.idle / at.spoke : null,
            flags: flags.filter((f) => f.agent === agent && f.steps && f.steps[0] <= step && step <= f.steps[1]).length,
          };
          return [agent, point] as const;
        });
        return {
          step,
          episodes: totals.episodes,
          teamReward: totals.rewardN > 0 ? totals.rewardSum / totals.rewardN : 0,
          agents: Object.fromEntries(entries),
        };
      });
  }

  /** Where the first episode (in id order) of a step at or after a given step is, for flag locations. */
  locator(): (step: number) => TraceLocation | undefined {
    const sorted = [...this.steps].sort(([a], [b]) => a - b);
    // Suffix minima: the earliest episode among the steps from k on.
    const earliest: (StepTotals | undefined)[] = Array<StepTotals | undefined>(sorted.length + 1).fill(undefined);
    for (let k = sorted.length - 1; k >= 0; k--) {
      const here = sorted[k]?.[1];
      const later = earliest[k + 1];
      earliest[k] = later === undefined || (here !== undefined && here.first < later.first) ? here : later;
    }
    return (step) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((sorted[mid]?.[0] ?? Infinity) < step) lo = mid + 1;
        else hi = mid;
      }
      const found = earliest[lo];
      return found?.location;
    };
  }
}

/** Mean of the values (summed in order); null when there are none. */
export function meanOf(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (let k = 0; k < values.length; k++) sum += values[k] ?? 0;
  return sum / values.length;
}

/** The step trends of a list of episodes (in id order); see {@link StepTally}. */
export function stepTrends(
  episodes: Iterable<EpisodeFacts>,
  agents: readonly string[],
  flags: readonly AuditFlag[],
  epsilon: number,
): StepTrend[] {
  const tally = new StepTally(epsilon);
  for (const e of episodes) tally.add(e);
  return tally.trends(agents, flags);
}
