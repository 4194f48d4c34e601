import type { MessageView } from '../../../src/protocol/episodePanel';
import { findInSegment, plannedRows, scanPlan, type FindDirection } from './find';
import { formatInt } from '../kit/format';
import { windowSize } from './windows';
import { plural } from '../../../src/core/plural';

/** Windows one search may fetch from the host before it stops and asks to go on (bounded work). */
export const maxFindWindows = 25;

export interface FinderHost {
  readonly count: number;
  /** Window `index` from the cache or the host. */
  load(index: number): Promise<readonly (MessageView | undefined)[]>;
  /** Where a search starts (exclusive). */
  readonly fromSeq: number;
  /** A match: show it. */
  reveal(seq: number): void;
  status(text: string): void;
}

/**
 * Find in the episode: scans from the focused message to the next one whose text or agent contains
 * the needle, fetching windows forward as needed, at most {@link maxFindWindows} per search. When
 * the budget runs out, the next search with the same text goes on from where this one stopped.
 */
export class Finder {
  private resume: { needle: string; direction: FindDirection; from: number } | null = null;
  private token = 0;

  /** Forgets a stopped search (the text or the episode changed). */
  reset(): void {
    this.resume = null;
    this.token++;
  }

  async find(text: string, direction: FindDirection, host: FinderHost): Promise<void> {
    const needle = text.trim().toLowerCase();
    const token = ++this.token;
    if (needle === '' || host.count === 0) {
      host.status('');
      return;
    }
    const resume = this.resume;
    const from = resume && resume.needle === needle && resume.direction === direction ? resume.from : host.fromSeq;
    const plan = scanPlan(from, direction, host.count, maxFindWindows);
    host.status('Searching…');
    for (const segment of plan) {
      let rows: readonly (MessageView | undefined)[];
      try {
        rows = await host.load(segment.window);
      } catch (error) {
        if (token === this.token)
          host.status(`Search stopped: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      if (token !== this.token) return;
      const hit = findInSegment(segment, (seq) => rows[seq - segment.window * windowSize], needle);
      if (hit !== null) {
        this.resume = null;
        host.reveal(hit);
        host.status(`Match in message #${formatInt(hit)}`);
        return;
      }
    }
    this.stopped(needle, direction, plan, host);
  }

  private stopped(needle: string, direction: FindDirection, plan: ReturnType<typeof scanPlan>, host: FinderHost): void {
    const covered = plannedRows(plan);
    const last = plan[plan.length - 1];
    if (covered >= host.count || !last) {
      this.resume = null;
      host.status('No message contains this text');
      return;
    }
    this.resume = { needle, direction, from: last.to };
    host.status(`No match in ${plural(covered, 'message')} up to #${formatInt(last.to)}; Enter searches on`);
  }
}
