import { longEpisodeTimings, timingTable } from './viewBench';

// `node dist/bench.js timeline`: the Episode view's data calls on the synthetic 10,000- and
// 100,000-message episodes of the view benchmark alone (no large-run index), the swimlanes'
// timeline reply among them.

/** The long-episode rows of the view benchmark as a Markdown table. */
export async function timelineBench(): Promise<string> {
  return timingTable('Long episodes (first call on a cold service, best of 3):', await longEpisodeTimings());
}
