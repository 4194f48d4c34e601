import { creditShares } from '../../credit/audit/creditShare';
import type { BrowseFlag } from '../../store/browseRepository';
import type { DashboardStep, StepAgentCredit } from '../../store/dashboardRepository';
import { flagView } from './flagView';
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
    flagCounts: matrix(
      rows,
      cols,
      rows.map((agent) =>
        cols.map(
          (step) => input.flags.filter((f) => f.agent === agent && covers(f, step, input.episodeFlagSteps)).length,
        ),
      ),
    ),
    windows: input.flags.flatMap((f): FlagWindow[] =>
      f.scope === 'step' && f.steps
        ? [{ flagId: f.flagId, kind: f.kind, agent: f.agent, from: f.steps[0], to: f.steps[1] }]
        : [],
    ),
    flags: input.flags.map(flagView),
    epsilon: input.epsilon,
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

function covers(flag: BrowseFlag, step: number, episodeSteps: ReadonlyMap<number, number | null>): boolean {
  if (flag.scope === 'run') return true;
  if (flag.scope === 'episode') return episodeSteps.get(flag.flagId) === step;
  return flag.steps !== null && flag.steps[0] <= step && step <= flag.steps[1];
}

function matrix(
  rows: readonly string[],
  cols: readonly number[],
  values: readonly (readonly (number | null)[])[],
): Matrix<string, number> {
  return { rows, cols, values: values.flat() };
}
