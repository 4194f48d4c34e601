import type { SplitChoice } from '../../core/split';

/** The agent-level methods a pass over the traces computes: those whose values a trace can log. */
export const traceCreditMethods = ['shared', 'loo', 'shapley'] as const;
export type TraceCreditMethod = (typeof traceCreditMethods)[number];

/** What a pass over the traces computes: one method, on the episodes of a split and a step range. */
export interface TraceCreditChoice {
  readonly method: TraceCreditMethod;
  readonly split: SplitChoice;
  /** Inclusive training-step range; an episode without a step counts as step 0 (as in the index). */
  readonly steps: readonly [number, number];
  /** Only the run with this name or folder. */
  readonly run?: string;
}

/** True for a run the choice asks for: every run without `run`, else the one with that name or folder. */
export function choosesRun(choice: TraceCreditChoice, run: { readonly name: string; readonly root: string }): boolean {
  return choice.run === undefined || run.name === choice.run || run.root === choice.run;
}
