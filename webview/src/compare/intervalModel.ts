import { agentDifferenceText, hasDifference, hasInterval, type AgentView } from './compareText';

// The interval chart's model: per agent the difference B − A and its 95% interval on one shared
// axis that always holds zero. Pure: no DOM.

/** One agent's row of the chart; `difference` null when the data cannot answer (the label says why). */
export interface IntervalRow {
  readonly agent: string;
  readonly difference: number | null;
  /** Both ends, or null when fewer than 2 pairs give none. */
  readonly interval: readonly [number, number] | null;
  /** The row's text: the number, its interval, p and test, or "not identifiable: …". */
  readonly label: string;
  /** Which side of zero the whole interval lies on: a change the data supports at the 95% level, or not. */
  readonly verdict: 'up' | 'down' | 'unclear' | 'none';
}

export interface IntervalModel {
  readonly rows: readonly IntervalRow[];
  /** The axis, padded by 10% of its span; [−1, 1] when nothing but zero is drawn. */
  readonly domain: readonly [number, number];
}

/** The rows of `agents` in their order, and an axis holding 0, every difference and every interval end. */
export function intervalModel(agents: readonly AgentView[]): IntervalModel {
  const rows = agents.map(intervalRow);
  let low = 0;
  let high = 0;
  for (const row of rows) {
    for (const value of [row.difference, ...(row.interval ?? [])]) {
      if (value === null) continue;
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  }
  if (low === high) return { rows, domain: [-1, 1] };
  const pad = (high - low) * 0.1;
  return { rows, domain: [low - pad, high + pad] };
}

function intervalRow(agent: AgentView): IntervalRow {
  const label = agentDifferenceText(agent);
  const d = agent.credit;
  if (!hasDifference(agent) || d.difference === null)
    return { agent: agent.agent, difference: null, interval: null, label, verdict: 'none' };
  const interval = hasInterval(d) ? ([d.interval[0] ?? 0, d.interval[1] ?? 0] as const) : null;
  return { agent: agent.agent, difference: d.difference, interval, label, verdict: verdictOf(interval) };
}

function verdictOf(interval: readonly [number, number] | null): IntervalRow['verdict'] {
  if (!interval) return 'unclear';
  if (interval[0] > 0) return 'up';
  if (interval[1] < 0) return 'down';
  return 'unclear';
}
