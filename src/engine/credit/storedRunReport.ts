import { defaultSplit } from '../../core/split';
import type { CreditRepository } from '../../store/creditRepository';
import type { CreditJobHooks, CreditJobOptions, RunCreditResult } from './creditJob';

/**
 * Hands a run's stored rows (its steps and split, with their group advantages) and its failures
 * to the host's `onRunStored`, on `output`'s connection: the job's own, or the host's after a job
 * in a worker.
 */
export function reportStoredRun(
  output: CreditRepository,
  hooks: Pick<CreditJobHooks, 'onRunStored'>,
  options: Pick<CreditJobOptions, 'steps' | 'split' | 'dryRun'>,
  result: RunCreditResult,
): void {
  if (!hooks.onRunStored || options.dryRun) return;
  const [from, to] = options.steps ?? [-Infinity, Infinity];
  const split = options.split ?? defaultSplit;
  const { runId } = result.run;
  const { hash } = result.params;
  // An unfinished iteration would keep the connection busy for the next write: each is closed.
  const open: IterableIterator<unknown>[] = [];
  const opened = <T>(rows: IterableIterator<T>): IterableIterator<T> => {
    open.push(rows);
    return rows;
  };
  try {
    hooks.onRunStored(result, opened(output.outputRows(runId, hash, from, to, split)), () =>
      opened(output.failures(runId, hash, from, to, split)),
    );
  } finally {
    for (const rows of open) rows.return?.();
  }
}
