import { max, mean } from 'd3-array';
import type { RunOverview } from '../../../src/protocol/dashboardPanel';
import { lineChartModel, type LineChartModel, type Series } from './lineModel';
import { alignedRow } from './matrix';

/** One agent's band of the stacked credit-share area: `[y0, y1]` per step. */
export interface StackLayer {
  readonly key: string;
  readonly agent: string;
  readonly bands: readonly (readonly [number, number])[];
}

/** The credit-share chart: per-agent lines and the same data stacked. */
export interface ShareModel {
  readonly lines: LineChartModel;
  readonly layers: readonly StackLayer[];
  /** Top of the stacked y axis (1 unless shares of a step add up to more). */
  readonly stackMax: number;
}

type ShareInput = Pick<RunOverview, 'steps' | 'creditShare'>;

/** Each agent's credit share per step (null where the agent has none). */
export function shareSeries(overview: ShareInput, agents: readonly string[]): Series[] {
  return agents.map((agent) => ({
    key: agent,
    label: agent,
    values: alignedRow(overview.creditShare, agent, overview.steps),
  }));
}

/** Stacks `series` in order; a missing share counts as 0. */
export function stackLayers(series: readonly Series[], stepCount: number): StackLayer[] {
  const base = new Array<number>(stepCount).fill(0);
  return series.map((s) => {
    const bands = base.map((y0, i) => {
      const y1 = y0 + Math.max(0, s.values[i] ?? 0);
      base[i] = y1;
      return [y0, y1] as const;
    });
    return { key: s.key, agent: s.label, bands };
  });
}

/** The credit-share chart model of `overview` for `agents` (roster order, bottom of the stack first). */
export function shareModel(overview: ShareInput, agents: readonly string[], maxHover = 200): ShareModel {
  const series = shareSeries(overview, agents);
  const layers = stackLayers(series, overview.steps.length);
  const top = max(layers[layers.length - 1]?.bands ?? [], (b) => b[1]) ?? 1;
  return {
    lines: lineChartModel(overview.steps, series, { yDomain: [0, 1], maxHover }),
    layers,
    stackMax: Math.max(1, top),
  };
}

/**
 * Mean of the first and of the last `k` non-null values (by default a quarter of them, 1 to 5, so
 * the two ends do not overlap); undefined when there are none.
 */
export function trend(values: readonly (number | null)[], k?: number): readonly [number, number] | undefined {
  const present = values.filter((v): v is number => v !== null);
  const n = k ?? Math.max(1, Math.min(5, Math.floor(present.length / 4)));
  const head = mean(present.slice(0, n));
  const tail = mean(present.slice(-n));
  return head === undefined || tail === undefined ? undefined : [head, tail];
}

/** "planner 0.35 → 0.49; verifier 0.31 → 0.00" (start vs end of the run), for the caption. */
export function shareSummary(series: readonly Series[]): string {
  const parts = series.flatMap((s) => {
    const t = trend(s.values);
    return t ? [`${s.label} ${t[0].toFixed(2)} → ${t[1].toFixed(2)}`] : [];
  });
  return parts.length === 0
    ? 'No credit shares for these steps.'
    : `Credit share, start → end of the run: ${parts.join('; ')}.`;
}
