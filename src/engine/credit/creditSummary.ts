import type { ComputedStatus } from '../../core/provenance';
import { normalInterval } from '../../credit/stats/pairedStatistics';

/** An agent's credit over a run: mean with a 95% interval, and how it moved over training. */
export interface AgentSummary {
  readonly agent: string;
  readonly episodes: number;
  readonly mean: number;
  readonly ci: readonly [number, number];
  /** Mean over the first and the last quarter of the run's training steps. */
  readonly early: number;
  readonly late: number;
  /** How many of its values are exact, estimated or approximate (docs/credit-provenance.md). */
  readonly status: Readonly<Record<ComputedStatus, number>>;
}

/** One agent's mean credit at one training step (episodes without a step count as step 0), with its values' statuses. */
export interface StepCell {
  readonly agent: string;
  readonly step: number;
  readonly n: number;
  readonly mean: number;
  readonly status: Readonly<Record<ComputedStatus, number>>;
}

/** Count, sum and statuses of one agent's values at one step. */
interface StepMoments {
  n: number;
  sum: number;
  readonly status: Record<ComputedStatus, number>;
}

/** One agent's running moments: count, sum (the mean is the sum in arrival order / n) and Welford's M2. */
interface AgentMoments {
  n: number;
  sum: number;
  welfordMean: number;
  m2: number;
  /** Count and sum of its values per training step (early and late need the run's step range). */
  readonly steps: Map<number, StepMoments>;
  readonly status: Record<ComputedStatus, number>;
}

/**
 * Per-agent summaries of a credit pass, value by value: running sums and Welford moments per agent
 * and per step, never the values themselves. The mean and the counts are those of the values summed
 * in arrival order; the sd (Welford) and the early / late means (per-step sums added in step order)
 * can differ from a two-pass computation in the last bits only. NaN and infinite values are skipped.
 */
export class AgentSummaryTally {
  private readonly agents = new Map<string, AgentMoments>();

  /** One value of an agent (the agent is listed even when every value of it is skipped). */
  add(agent: string, step: number, value: number, status: ComputedStatus = 'exact'): void {
    const m = this.open(agent);
    if (!Number.isFinite(value)) return;
    m.n++;
    m.sum += value;
    const delta = value - m.welfordMean;
    m.welfordMean += delta / m.n;
    m.m2 += delta * (value - m.welfordMean);
    const atStep = m.steps.get(step) ?? { n: 0, sum: 0, status: { exact: 0, estimated: 0, approximate: 0 } };
    atStep.n++;
    atStep.sum += value;
    atStep.status[status]++;
    m.steps.set(step, atStep);
    m.status[status]++;
  }

  /**
   * The mean of every (agent, training step) cell with a finite value, agents in order of their
   * first value and steps ascending: the table a notebook's `groupby(step, agent).mean()` gives.
   */
  stepCells(): StepCell[] {
    const cells: StepCell[] = [];
    for (const [agent, m] of this.agents)
      for (const [step, s] of [...m.steps].sort(([a], [b]) => a - b))
        cells.push({ agent, step, n: s.n, mean: s.sum / s.n, status: { ...s.status } });
    return cells;
  }

  /** Agents in order of their first value (finite or not); see {@link agentSummaries}. */
  summaries(): AgentSummary[] {
    return [...this.agents].map(([agent, m]) => summaryOf(agent, m));
  }

  private open(agent: string): AgentMoments {
    let m = this.agents.get(agent);
    if (!m) {
      const status = { exact: 0, estimated: 0, approximate: 0 };
      m = { n: 0, sum: 0, welfordMean: 0, m2: 0, steps: new Map(), status };
      this.agents.set(agent, m);
    }
    return m;
  }
}

/**
 * Per-agent summaries from (step, value) pairs. The interval is the normal approximation
 * mean ± 1.96·sd/√n (n ≥ 2; a single episode gives [mean, mean]). NaN values are skipped.
 */
export function agentSummaries(
  values: ReadonlyMap<string, readonly (readonly [number, number, ComputedStatus?])[]>,
): AgentSummary[] {
  const tally = new AgentSummaryTally();
  for (const [agent, pairs] of values) {
    if (pairs.length === 0) tally.add(agent, 0, Number.NaN); // listed, with no value
    for (const [step, value, status] of pairs) tally.add(agent, step, value, status);
  }
  return tally.summaries();
}

function summaryOf(agent: string, m: AgentMoments): AgentSummary {
  const mean = m.n === 0 ? Number.NaN : m.sum / m.n;
  const sd = m.n < 2 ? Number.NaN : Math.sqrt(m.m2 / (m.n - 1));
  const { early, late } = earlyAndLate(m.steps);
  return {
    agent,
    episodes: m.n,
    mean,
    ci: m.n < 2 ? [mean, mean] : normalInterval(mean, sd / Math.sqrt(m.n), 0.95),
    early,
    late,
    status: { ...m.status },
  };
}

/** Means over the first and the last quarter of the step range (NaN when no step is there). */
function earlyAndLate(steps: ReadonlyMap<number, { n: number; sum: number }>): { early: number; late: number } {
  const sorted = [...steps].sort(([a], [b]) => a - b);
  const lo = sorted[0]?.[0] ?? Infinity;
  const hi = sorted[sorted.length - 1]?.[0] ?? -Infinity;
  const quarter = (hi - lo) / 4;
  const meanWhere = (keep: (step: number) => boolean): number => {
    let n = 0;
    let sum = 0;
    for (const [step, s] of sorted)
      if (keep(step)) {
        n += s.n;
        sum += s.sum;
      }
    return n === 0 ? Number.NaN : sum / n;
  };
  return { early: meanWhere((s) => s <= lo + quarter), late: meanWhere((s) => s >= hi - quarter) };
}
