import type { RunCreditResult, RunFailure } from './creditJob';

/** Failures a pass keeps whole, in order; the rest are counted (every one is stored in the index's `credit_error`). */
export const failureSampleSize = 1000;
/** Distinct reasons a pass groups its failures by; failures of further reasons are counted apart. */
const maxReasons = 200;

/** Failures of one status and reason: how many, and the first. */
export interface FailureGroup {
  readonly n: number;
  readonly first: RunFailure;
}

/**
 * A pass's failed and not-identifiable episodes, in memory that does not grow with the run: the
 * counts, the first {@link failureSampleSize} failures, and the failures grouped by status and
 * reason (the report's lines). Why bounded: a pass whose every episode is not identifiable (no
 * logged counterfactuals, no evaluator) held a record per episode, and at 1.3 M episodes ran a 512 MB
 * heap out of memory (BENCHMARKS.md, issue 15, fourteenth part); the index has them all.
 */
export class FailureTally {
  failed = 0;
  unidentified = 0;
  /** Failures whose reason came after {@link maxReasons} others: counted, not grouped. */
  ungrouped = 0;
  readonly sample: RunFailure[] = [];
  private readonly groups = new Map<string, { n: number; first: RunFailure }>();

  get total(): number {
    return this.failed + this.unidentified;
  }

  add(failure: RunFailure): void {
    if (failure.status === 'not-identifiable') this.unidentified++;
    else this.failed++;
    if (this.sample.length < failureSampleSize) this.sample.push(failure);
    const key = `${failure.status ?? 'failed'}\u0000${failure.reason}`;
    const group = this.groups.get(key);
    if (group) group.n++;
    else if (this.groups.size < maxReasons) this.groups.set(key, { n: 1, first: failure });
    else this.ungrouped++;
  }

  /** The groups, most failures first. */
  grouped(): FailureGroup[] {
    return [...this.groups.values()].sort((a, b) => b.n - a.n);
  }

  /** What a run's result says of its failures. */
  report(): Pick<RunCreditResult, 'failures' | 'failed' | 'unidentified' | 'problems' | 'ungrouped'> {
    const { sample, failed, unidentified, ungrouped } = this;
    return { failures: sample, failed, unidentified, problems: this.grouped(), ungrouped };
  }
}
