import { creditShares } from '../../credit/audit/creditShare';
import type { BrowseFlag } from '../../store/browseRepository';
import type { DashboardStep, StepAgentCredit } from '../../store/dashboardRepository';
import { flagView } from './flagView';
import type { OverviewColour } from '../../protocol/dashboardPanel';
import type { CreditCoverage, CreditStatus, FlagWindow, Matrix, RunOverview, ViewMethod } from './viewTypes';

/** What a run overview is assembled from (aggregated in SQL, see DashboardRepository). */
export interface RunOverviewInput {
  readonly runId: number;
  readonly method: ViewMethod;
  readonly status: CreditStatus;
  readonly epsilon: number;
  /** What the charts draw and leave out. */
  readonly coverage: CreditCoverage;
  /** The run's agents in roster order. */
  readonly agents: readonly { readonly agentId: number; readonly name: string }[];
  readonly steps: readonly DashboardStep[];
  readonly credit: readonly StepAgentCredit[];
  readonly flags: readonly BrowseFlag[];
  /** Step of the episode each episode-scope flag names, by flag id. */
  readonly episodeFlagSteps: ReadonlyMap<number, number | null>;
  /** The heatmap's colour domain and not-identifiable steps, passed through. */
  readonly colour: OverviewColour;
}

/**
 * The dashboard's charts for one run and method, per training step. Credit shares follow the
 * audit's step trends (engine/audit/stepTrends.ts): each agent's share of the step's positive mean
 * credit (creditShares), null for every agent when none has credit at that step; the idle rate is
 * the share of the episodes where the agent spoke and has credit with |credit| ≤ ε (null when there
 * are none). A flag covers a step when it is a step-scope flag whose range holds it, an
 * episode-scope flag on an episode of that step, or a run-scope flag.
 */
export function runOverview(input: RunOverviewInput): RunOverview {
  const { agents, steps } = input;
  const rows = agents.map((a) => a.name);
  const cols = steps.map((s) => s.step);
  const cell = new Map(input.credit.map((c) => [`${String(c.agentId)}:${String(c.step)}`, c]));
  const at = (agentId: number, step: number): StepAgentCredit | undefined =>
    cell.get(`${String(agentId)}:${String(step)}`);
  const mean = matrix(
    rows,
    cols,
    agents.map((a) => steps.map((s) => at(a.agentId, s.step)?.mean ?? null)),
  );
  const idle = matrix(
    rows,
    cols,
    agents.map((a) =>
      steps.map((s) => {
        const c = at(a.agentId, s.step);
        return c && c.spoke > 0 ? c.idle / c.spoke : null;
      }),
    ),
  );
  return {
    runId: input.runId,
    method: input.method,
    status: input.status,
    coverage: input.coverage,
    steps: cols,
    teamReward: steps.map((s) => s.meanReward),
    episodes: steps.map((s) => s.episodes),
    creditShare: matrix(rows, cols, shareColumns(mean, rows.length, cols.length)),
    meanCredit: mean,
    idleRate: idle,
    flagCounts: matrix(rows, cols, flagCountColumns(input.flags, rows, cols, input.episodeFlagSteps)),
    windows: input.flags.flatMap((f): FlagWindow[] =>
      f.scope === 'step' && f.steps
        ? [{ flagId: f.flagId, kind: f.kind, agent: f.agent, from: f.steps[0], to: f.steps[1] }]
        : [],
    ),
    flags: input.flags.map(flagView),
    epsilon: input.epsilon,
    colour: input.colour,
  };
}

/** Row-major agents × steps shares of the positive mean credit, from the mean matrix. */
function shareColumns(mean: Matrix<string, number>, nRows: number, nCols: number): (number | null)[][] {
  const shares: (number | null)[][] = Array.from({ length: nRows }, () => new Array<number | null>(nCols).fill(null));
  for (let c = 0; c < nCols; c++) {
    const column = Array.from({ length: nRows }, (_, r) => mean.values[r * nCols + c] ?? null);
    if (column.every((v) => v === null)) continue;
    const s = creditShares(column.map((v) => v ?? 0));
    for (let r = 0; r < nRows; r++) (shares[r] ?? [])[c] = s[r] ?? 0;
  }
  return shares;
}

/**
 * Agents × steps counts of the flags covering each cell. Each flag adds one over the column range it
 * covers (a run: every column; an episode: its step's; a step window: the columns inside it) in a
 * difference array, so the cost is O(flags · log steps + agents · steps) — a run audited at 10 GB
 * carries tens of thousands of flags over a thousand steps.
 */
function flagCountColumns(
  flags: readonly BrowseFlag[],
  rows: readonly string[],
  cols: readonly number[],
  episodeSteps: ReadonlyMap<number, number | null>,
): number[][] {
  const ascending = [...cols].sort((a, b) => a - b);
  const columnOf = new Map(cols.map((step, c) => [step, c]));
  const rowOf = new Map(rows.map((agent, r) => [agent, r]));
  // Columns are steps in ascending order (the overview lists them so); deltas are by sorted position.
  const deltas = rows.map(() => new Array<number>(cols.length + 1).fill(0));
  for (const flag of flags) {
    const delta = flag.agent === null ? undefined : deltas[rowOf.get(flag.agent) ?? -1];
    const range = delta ? coveredPositions(flag, ascending, episodeSteps) : null;
    if (!delta || !range) continue;
    delta[range[0]] = (delta[range[0]] ?? 0) + 1;
    delta[range[1]] = (delta[range[1]] ?? 0) - 1;
  }
  return deltas.map((delta) => {
    const bySorted: number[] = [];
    let running = 0;
    for (let i = 0; i < ascending.length; i++) bySorted.push((running += delta[i] ?? 0));
    const counts = new Array<number>(cols.length).fill(0);
    ascending.forEach((step, i) => {
      const c = columnOf.get(step);
      if (c !== undefined) counts[c] = bySorted[i] ?? 0;
    });
    return counts;
  });
}

/** The half-open range [from, to) of sorted step positions a flag covers, or null for none. */
function coveredPositions(
  flag: BrowseFlag,
  ascending: readonly number[],
  episodeSteps: ReadonlyMap<number, number | null>,
): readonly [number, number] | null {
  if (flag.scope === 'run') return ascending.length > 0 ? [0, ascending.length] : null;
  const [low, high] =
    flag.scope === 'episode' ? stepPair(episodeSteps.get(flag.flagId) ?? null) : (flag.steps ?? [null, null]);
  if (low === null || high === null) return null;
  const from = firstAtLeast(ascending, low);
  const to = firstAbove(ascending, high);
  return to > from ? [from, to] : null;
}

const stepPair = (step: number | null): readonly [number | null, number | null] => [step, step];

/** Index of the first value ≥ `x` in an ascending array (its length when none). */
function firstAtLeast(ascending: readonly number[], x: number): number {
  let lo = 0;
  let hi = ascending.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ascending[mid] ?? Infinity) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first value > `x` in an ascending array (its length when none). */
function firstAbove(ascending: readonly number[], x: number): number {
  let lo = 0;
  let hi = ascending.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ascending[mid] ?? Infinity) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function matrix(
  rows: readonly string[],
  cols: readonly number[],
  values: readonly (readonly (number | null)[])[],
): Matrix<string, number> {
  return { rows, cols, values: values.flat() };
}
