/**
 * The number of leading rows of `current` that are the trailing rows of `previous` re-dumped: the
 * largest k such that `previous`'s last k rows start with `current`'s rows (all of them when
 * `current` is shorter than k, as when a file is written in several batches). A rolling buffer
 * (TRL's `_logs` deques) keeps its oldest rows first, so a repeat is always a suffix of the
 * previous dump moved to the front; equal rows elsewhere are distinct rollouts.
 */
export function rollingOverlap(previous: readonly string[], current: readonly string[]): number {
  for (let k = previous.length; k > 0; k--) {
    const start = previous.length - k;
    const n = Math.min(k, current.length);
    let same = true;
    for (let j = 0; j < n && same; j++) same = previous[start + j] === current[j];
    if (same) return k;
  }
  return 0;
}
