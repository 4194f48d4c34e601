// A small overview shaped like the demo run: three agents, the last one's credit collapsing at step 3.
import type { Matrix, RunOverview } from '../../../src/protocol/dashboardPanel';

export const agents = ['planner', 'solver', 'verifier'];

function matrix(rows: readonly string[], cols: readonly number[], values: (number | null)[][]): Matrix<string, number> {
  return { rows, cols, values: values.flat() };
}

export function smallOverview(): RunOverview {
  const steps = [0, 1, 2, 3, 4, 5];
  return {
    runId: 1,
    method: 'loo',
    status: 'computed',
    coverage: { episodes: 24, drawn: 24, approximate: 0, notIdentifiable: 0, failed: 0, reason: null, remedy: null },
    steps,
    teamReward: [0.7, 0.72, 0.75, 0.8, 0.85, 0.9],
    episodes: [4, 4, 4, 4, 4, 4],
    creditShare: matrix(agents, steps, [
      [0.3, 0.3, 0.3, 0.5, 0.5, 0.5],
      [0.4, 0.4, 0.4, 0.5, 0.5, 0.5],
      [0.3, 0.3, 0.3, 0, 0, null],
    ]),
    meanCredit: matrix(agents, steps, [
      [0.1, 0.1, 0.1, 0.2, 0.2, 0.2],
      [0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
      [0.1, 0.1, 0.1, -0.3, 0, null],
    ]),
    idleRate: matrix(agents, steps, [
      [0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
      [0, 0, 0, 1, 1, 1],
    ]),
    flagCounts: matrix(agents, steps, [
      [0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
      [0, 0, 0, 2, 2, 1],
    ]),
    windows: [
      { flagId: 7, kind: 'decoupling', agent: 'verifier', from: 3, to: 5 },
      { flagId: 8, kind: 'idle', agent: 'verifier', from: 3, to: 5 },
    ],
    flags: [],
    epsilon: 0.01,
    colour: { domain: { bound: 1, reward: { min: 0, max: 1 } }, unidentifiedSteps: [] },
  };
}
