import type { Matrix, OverviewDelta, RunOverview } from '../../../src/protocol/dashboardPanel';

/** Where a merged column comes from: column `index` of the base overview or of the delta. */
interface Source {
  readonly step: number;
  readonly fromDelta: boolean;
  readonly index: number;
}

/**
 * The overview `base` brought up to date by `delta` (live tail): the steps the delta re-read
 * replace or join the base's, in step order; status, coverage and watermark are the delta's.
 * Undefined when the delta cannot apply (another run or method, or the agents changed): fetch the
 * whole overview instead.
 */
export function mergeOverviewDelta(base: RunOverview, delta: OverviewDelta): RunOverview | undefined {
  const { columns } = delta;
  if (base.runId !== delta.runId || base.method !== delta.method) return undefined;
  if (!sameRows(base.creditShare.rows, columns.creditShare.rows)) return undefined;
  const recomputed = new Set(delta.recomputed);
  const sources: Source[] = [
    ...base.steps.flatMap((step, index) => (recomputed.has(step) ? [] : [{ step, fromDelta: false, index }])),
    ...columns.steps.map((step, index) => ({ step, fromDelta: true, index })),
  ].sort((a, b) => a.step - b.step);
  const pick = <T>(from: readonly T[], to: readonly T[]): T[] =>
    sources.map((s) => (s.fromDelta ? to[s.index] : from[s.index]) as T);
  const matrix = (from: Matrix<string, number>, to: Matrix<string, number>): Matrix<string, number> => ({
    rows: from.rows,
    cols: sources.map((s) => s.step),
    values: from.rows.flatMap((_, r) =>
      sources.map((s) =>
        s.fromDelta
          ? (to.values[r * to.cols.length + s.index] ?? null)
          : (from.values[r * from.cols.length + s.index] ?? null),
      ),
    ),
  });
  return {
    ...base,
    status: delta.status,
    coverage: delta.coverage,
    watermark: delta.watermark,
    steps: sources.map((s) => s.step),
    teamReward: pick(base.teamReward, columns.teamReward),
    episodes: pick(base.episodes, columns.episodes),
    creditShare: matrix(base.creditShare, columns.creditShare),
    meanCredit: matrix(base.meanCredit, columns.meanCredit),
    idleRate: matrix(base.idleRate, columns.idleRate),
    flagCounts: matrix(base.flagCounts, columns.flagCounts),
  };
}

function sameRows(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((row, i) => row === b[i]);
}
