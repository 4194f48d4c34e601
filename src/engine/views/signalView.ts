import type { SignalStepAgent } from '../../store/signalRepository';
import type { Matrix, SignalDisagreementView, ViewMethod } from './viewTypes';

/** What {@link signalView} is built from: the run's agents, and the stored cells of one parameter set (undefined: none stored). */
export interface SignalViewInput {
  readonly method: ViewMethod;
  readonly agents: readonly { readonly agentId: number; readonly name: string }[];
  /** The stored cells, or undefined when the method has no stored credit. */
  readonly cells: readonly SignalStepAgent[] | undefined;
}

/** The method a dashboard's sign-disagreement chart compares with the shared reward: its own, or loo while it shows shared. */
export function signalMethod(method: ViewMethod): ViewMethod {
  return method === 'shared' ? 'loo' : method;
}

/**
 * The Run Dashboard's sign-disagreement matrices (credit-methods.md §3.18): shares of each cell's
 * samples, null where a cell has none (never 0 for "no data"), and in words what would give the
 * chart when no cell has samples.
 */
export function signalView(input: SignalViewInput): SignalDisagreementView {
  const cells = input.cells ?? [];
  const rows = input.agents.map((a) => a.name);
  const cols = [...new Set(cells.map((c) => c.step))].sort((a, b) => a - b);
  const at = new Map(cells.map((c) => [`${String(c.agentId)}:${String(c.step)}`, c]));
  const grid = (value: (c: SignalStepAgent) => number | null): Matrix<string, number> => ({
    rows,
    cols,
    values: input.agents.flatMap((a) =>
      cols.map((step) => {
        const c = at.get(`${String(a.agentId)}:${String(step)}`);
        return c ? value(c) : null;
      }),
    ),
  });
  const share = (count: (c: SignalStepAgent) => number) => (c: SignalStepAgent) => (c.n > 0 ? count(c) / c.n : null);
  const sum = (key: 'noGroup' | 'noCredit' | 'noReward'): number => cells.reduce((n, c) => n + c[key], 0);
  const excluded = { noGroup: sum('noGroup'), noCredit: sum('noCredit'), noReward: sum('noReward') };
  return {
    method: input.method,
    wrongWay: grid(share((c) => c.opposite)),
    noPush: grid(share((c) => c.zero)),
    sharedOnly: grid(share((c) => c.sharedOnly)),
    rho: grid((c) => (c.n > 0 ? c.rho : null)),
    samples: grid((c) => c.n),
    excluded,
    missing: missingText(input, excluded),
  };
}

function missingText(input: SignalViewInput, excluded: SignalDisagreementView['excluded']): string | null {
  const label = input.method;
  const command = `compute credit with \`credit-lens credit <run-dir> --method ${input.method}\` (or Recompute credit)`;
  if (input.cells === undefined)
    return `No ${label} credit is stored, so there is no marginal-contribution signal to compare with the shared reward: ${command}.`;
  if (input.cells.length === 0)
    return `The ${label} credit was stored before sign disagreement was recorded: ${command} again.`;
  if (input.cells.some((c) => c.n > 0)) return null;
  return (
    `No sample has both a GRPO group and exact or estimated ${label} credit with an advantage ` +
    `(${String(excluded.noGroup)} roster rows without a group, ${String(excluded.noCredit)} without such credit, ` +
    `${String(excluded.noReward)} without a team reward): a trace that logs its GRPO groups, and credit that the data can answer, would give it.`
  );
}
