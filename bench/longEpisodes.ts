import { longEpisodeTimings, timingTable } from './viewBench';

/**
 * The Episode view's host calls on synthetic long episodes alone (no large index to build):
 * `episode()` + a 200-message window + credit, cold, then per-message credit (prefix, exact) and
 * Monte-Carlo Owen rows with intervals. `node dist/bench.js long-episodes [--sizes 10000,100000]`; the swimlanes' timeline reply among them.
 */
export async function longEpisodes(argv: readonly string[]): Promise<string> {
  const at = argv.indexOf('--sizes');
  const sizes = at > 0 ? (argv[at + 1] ?? '').split(',').map(Number) : [10_000, 100_000];
  return [
    'Long episodes (first call after opening, best of 3):',
    '',
    ...timingTable(await longEpisodeTimings(sizes)),
  ].join('\n');
}
