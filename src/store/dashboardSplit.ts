import { splitCondition } from './splitFilter';

// Every per-step aggregate, coverage count and episode page of the Run Dashboard is of the episodes
// in the split bound to :split (splitParam: the training split by default, as credit and audit).

/** Episode `alias` is in the split bound to :split. */
export const inSplit = (alias: string): string => splitCondition(alias, ':split');

/**
 * The aggregates of migration 0011, of the split kinds in :split (step_total and shared_step_agent
 * are kept by the index writer, insertedAggregates.ts, and delete triggers; credit_step_* by the credit pass, read when viewAggregates says they are current).
 */
export const kindInSplit = 'instr(:split, split_kind) > 0';

/**
 * The per-step statements read every step, or only the steps listed in the JSON array :only (the
 * steps a live-tail delta re-reads, one episode_step seek each).
 */
export const onlySteps = (e: string, only: boolean): string =>
  only ? `AND ${e}.train_step IN (SELECT value FROM json_each(:only))` : '';

/** The run's episodes in the split that log no step (step_total counts only the others). */
export const unsteppedEpisodes = `(SELECT count(*) FROM episode e WHERE e.run_id = :run AND e.train_step IS NULL AND ${inSplit('e')})`;
