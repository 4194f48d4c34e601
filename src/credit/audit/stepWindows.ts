/** A run of consecutive training steps pooled into one audit window (credit-methods.md §5.2). */
export interface StepWindow {
  /** First step of the window (inclusive). */
  readonly from: number;
  /** Last step of the window (inclusive). */
  readonly to: number;
  /** Episodes in the window. */
  readonly episodes: number;
}

/**
 * Audit windows over training steps (credit-methods.md §5.2, §5.3: a verdict needs enough paired
 * episodes, n ≥ (z·sd/ε)²): the observed steps, sorted, are merged left to right until a window
 * holds at least `minEpisodes` episodes; a short tail is merged into the previous window. A run
 * with fewer than `minEpisodes` episodes in all gives one (short) window. Repeated steps are summed.
 * Empty input → `[]`. `minEpisodes = 1` gives one window per step (a step with 0 episodes joins
 * the next), `minEpisodes ≤ 0` one window per step. Non-finite steps or counts, negative counts, or a NaN `minEpisodes` are a programmer
 * error (RangeError).
 */
export function stepWindows(
  stepCounts: readonly { readonly step: number; readonly episodes: number }[],
  minEpisodes: number,
): StepWindow[] {
  if (Number.isNaN(minEpisodes)) throw new RangeError('minEpisodes must be a number, got NaN');
  const windows: StepWindow[] = [];
  let open: StepWindow | undefined;
  for (const [step, episodes] of episodesByStep(stepCounts)) {
    open =
      open === undefined
        ? { from: step, to: step, episodes }
        : { from: open.from, to: step, episodes: open.episodes + episodes };
    if (open.episodes >= minEpisodes) {
      windows.push(open);
      open = undefined;
    }
  }
  if (open === undefined) return windows;
  const last = windows.pop();
  windows.push(last === undefined ? open : { from: last.from, to: open.to, episodes: last.episodes + open.episodes });
  return windows;
}

/** Episode counts per distinct step, sorted by step. */
function episodesByStep(
  stepCounts: readonly { readonly step: number; readonly episodes: number }[],
): [number, number][] {
  const byStep = new Map<number, number>();
  for (const { step, episodes } of stepCounts) {
    if (!Number.isFinite(step) || !Number.isFinite(episodes) || episodes < 0) {
      throw new RangeError(
        `step ${step} has an invalid episode count ${episodes} (finite step and count ≥ 0 expected)`,
      );
    }
    byStep.set(step, (byStep.get(step) ?? 0) + episodes);
  }
  return [...byStep].sort(([a], [b]) => a - b);
}

/**
 * Merges step ranges `[from, to]` (inclusive) that overlap or are adjacent in the list of observed
 * `steps`, i.e. no observed step lies strictly between one range's end and the next one's start
 * (steps 0, 10, 20: `[0, 10]` and `[20, 20]` merge into `[0, 20]`). Used to join flagged windows into
 * the spans shown on the trend chart (product-targets.md T10). Returns new sorted ranges; `steps`
 * need not be sorted. A range with `from > to` or a NaN bound is a programmer error (RangeError).
 */
export function mergeStepRanges(
  ranges: readonly (readonly [number, number])[],
  steps: readonly number[],
): [number, number][] {
  for (const [from, to] of ranges)
    if (!(from <= to)) throw new RangeError(`step range [${from}, ${to}] must have from ≤ to`);
  const observed = [...new Set(steps)].sort((a, b) => a - b);
  const sorted = ranges.map(([from, to]): [number, number] => [from, to]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && (range[0] <= last[1] || !stepBetween(observed, last[1], range[0])))
      last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** Whether some observed step lies strictly between `low` and `high` (binary search, sorted steps). */
function stepBetween(observed: readonly number[], low: number, high: number): boolean {
  let lo = 0;
  let hi = observed.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((observed[mid] ?? Infinity) <= low) lo = mid + 1;
    else hi = mid;
  }
  return (observed[lo] ?? Infinity) < high;
}
