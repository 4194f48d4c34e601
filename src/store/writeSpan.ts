import type { Db } from './database';

/** Longest a span keeps its transaction open while writes keep coming (a CPU-bound pass). */
export const spanMaxMs = 1000;
/** A span still open this long after its last write is committed by a timer (the pass is waiting). */
export const spanIdleMs = 50;

/**
 * Many small write transactions committed as one, at most every {@link spanMaxMs}.
 *
 * Each commit writes every page its transaction dirtied to the WAL. A credit pass writes its rows
 * 250 episodes at a time, and where the values are distinct (graded rewards) each batch lands on
 * pages all over `credit_agent_sort`: 520 commits of the 1 GB run wrote the same index pages again
 * and again, and the pass took 1.9× as long as one whose values are 0 and 1 (BENCHMARKS.md, issue 15
 * tenth part). Inside a span each write is a savepoint of one open transaction (a failed write
 * rolls back alone), so a page is written once per span.
 *
 * The write lock is held for the span: at most {@link spanMaxMs} while writes arrive, and a timer
 * commits {@link spanIdleMs} after the last one, so a pass that waits (an evaluator's server) does
 * not hold the lock against the indexer while it waits. A pass reading logged values writes again
 * sooner than that (about every 20 ms), so its spans last the full second.
 */
export class WriteSpan {
  private openedAt: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `fn` as one transaction inside the span (opening it if none is open), then commits the span if it is old enough. */
  write<R>(fn: () => R): R {
    if (this.openedAt === undefined && !this.db.inTransaction) {
      this.db.exec('BEGIN');
      this.openedAt = this.now();
    }
    try {
      return this.db.transaction(fn)();
    } finally {
      // A failed write rolled back alone; the span's earlier writes still commit on time.
      if (this.openedAt !== undefined && this.now() - this.openedAt >= spanMaxMs) this.commit();
      else this.armIdleCommit();
    }
  }

  /** Commits the span's transaction, if one is open. Idempotent; a pass calls it once, when it ends, thrown or not. */
  commit(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.openedAt === undefined) return;
    this.openedAt = undefined;
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }

  /** The timer's commit: a connection closed first has already ended its transaction (node:sqlite throws on a closed one). */
  private commitUnlessClosed(): void {
    try {
      this.commit();
    } catch {
      this.openedAt = undefined;
    }
  }

  private armIdleCommit(): void {
    if (this.openedAt === undefined) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.commitUnlessClosed(), spanIdleMs);
    this.timer.unref();
  }
}
