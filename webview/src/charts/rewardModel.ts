import type { RunOverview } from '../../../src/protocol/dashboardPanel';
import { lineChartModel, type LineChartModel } from './lineModel';

/** The team-reward line of `overview` (mean logged reward per step), with at most `maxHover` hover columns. */
export function rewardModel(overview: Pick<RunOverview, 'steps' | 'teamReward'>, maxHover = 200): LineChartModel {
  const series = [
    { key: 'team-reward', label: 'team reward', values: overview.teamReward.slice(0, overview.steps.length) },
  ];
  return lineChartModel(overview.steps, series, { maxHover, format: (v) => v.toFixed(3) });
}

/** First and last non-null value of `values` with their steps; undefined when all are null. */
export function firstAndLast(
  steps: readonly number[],
  values: readonly (number | null)[],
): { first: [number, number]; last: [number, number] } | undefined {
  const present = steps
    .map((step, i) => [step, values[i] ?? null] as const)
    .filter((p): p is readonly [number, number] => p[1] !== null);
  const first = present[0];
  const last = present[present.length - 1];
  return first && last ? { first: [first[0], first[1]], last: [last[0], last[1]] } : undefined;
}

/** One sentence for screen readers and the figure caption, e.g. "Team reward 0.720 at step 0 → 0.900 at step 59." */
export function rewardSummary(overview: Pick<RunOverview, 'steps' | 'teamReward'>): string {
  const ends = firstAndLast(overview.steps, overview.teamReward);
  if (!ends) return 'No team reward logged for these steps.';
  const { first, last } = ends;
  return `Team reward ${first[1].toFixed(3)} at step ${String(first[0])} → ${last[1].toFixed(3)} at step ${String(last[0])}.`;
}
