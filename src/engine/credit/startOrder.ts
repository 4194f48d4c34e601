/**
 * Runs what finishes each of a pass's episodes in the order the pass started them, whatever order
 * they complete in: an episode that waits for an evaluator completes after later ones that did not.
 * Taking them in start order (which is id order) keeps each group's episodes together, so the
 * group advantages, the in-stream tallies and the rows they write stand (groupAdvantages.ts). At
 * most the pass's concurrency of episodes is in flight, so at most that many wait here.
 */
export class StartOrder {
  private started = 0;
  private due = 0;
  private readonly early = new Map<number, () => void>();

  /** The ticket of an episode being started. */
  start(): number {
    return this.started++;
  }

  /**
   * Runs `finish` of the episode with `ticket` now if every earlier one has finished (and returns
   * what it returns), else once they have (and returns undefined).
   */
  finish<T>(ticket: number, finish: () => T): T | undefined {
    if (ticket !== this.due) {
      this.early.set(ticket, finish);
      return undefined;
    }
    this.due++;
    const result = finish();
    for (let next = this.early.get(this.due); next !== undefined; next = this.early.get(this.due)) {
      this.early.delete(this.due++);
      next();
    }
    return result;
  }
}
