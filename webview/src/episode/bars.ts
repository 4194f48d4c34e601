import { scaleLinear } from 'd3-scale';
import type { AgentCreditView, EpisodeAgentView, EpisodeCreditView } from '../../../src/protocol/episodePanel';

// The agent summary model: one bar per agent from zero to its credit, its confidence interval, and
// the shared reward as a reference line. Positions are percentages of the track. Pure: no DOM.

export interface AgentBar {
  readonly agent: string;
  readonly declared: boolean;
  readonly messages: number;
  readonly credit: AgentCreditView | null;
  /** Left edge and width of the bar (from zero to the value), in percent; null without a value. */
  readonly bar: { readonly left: number; readonly width: number } | null;
  /** The interval whisker, in percent; null without both ends. */
  readonly interval: { readonly left: number; readonly width: number } | null;
  readonly negative: boolean;
}

export interface AgentBarsModel {
  /** Track domain: covers zero, the values, the intervals and the shared reward. */
  readonly domain: readonly [number, number];
  readonly zeroAt: number;
  readonly shared: number | null;
  readonly sharedAt: number | null;
  readonly bars: readonly AgentBar[];
}

/**
 * Bars for the roster `agents` (declared-but-silent agents included, in roster order) under
 * `credit`; agents that only the credit names come last. Without credit, bars are empty.
 */
export function agentBarsModel(
  agents: readonly EpisodeAgentView[],
  credit: EpisodeCreditView | null,
  reward: number | null,
): AgentBarsModel {
  const byAgent = new Map((credit?.agents ?? []).map((c) => [c.agent, c]));
  const shared = credit?.shared ?? reward;
  const rows: { agent: string; declared: boolean; messages: number; credit: AgentCreditView | null }[] = agents.map(
    (a) => ({
      agent: a.name,
      declared: a.declared,
      messages: a.messages,
      credit: byAgent.get(a.name) ?? null,
    }),
  );
  const known = new Set(agents.map((a) => a.name));
  for (const c of credit?.agents ?? [])
    if (!known.has(c.agent)) rows.push({ agent: c.agent, declared: false, messages: 0, credit: c });

  const ends = [
    0,
    shared,
    ...rows.flatMap((r) => [r.credit?.value ?? null, r.credit?.ciLow ?? null, r.credit?.ciHigh ?? null]),
  ];
  const finite = ends.filter((v): v is number => v !== null && Number.isFinite(v));
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  const x = scaleLinear().domain([lo, hi]).range([0, 100]).nice().clamp(true);
  const [d0, d1] = x.domain() as [number, number];
  const span = (a: number, b: number): { left: number; width: number } => ({
    left: Math.min(x(a), x(b)),
    width: Math.abs(x(b) - x(a)),
  });

  return {
    domain: [d0, d1],
    zeroAt: x(0),
    shared,
    sharedAt: shared === null ? null : x(shared),
    bars: rows.map((r) => {
      const value = r.credit?.value ?? null;
      const low = r.credit?.ciLow ?? null;
      const high = r.credit?.ciHigh ?? null;
      return {
        ...r,
        bar: value === null ? null : span(0, value),
        interval: low === null || high === null ? null : span(low, high),
        negative: value !== null && value < 0,
      };
    }),
  };
}
