import type { EpisodeAgentView, TimelineView } from '../../../../src/protocol/episodePanel';

// The swimlane model: lanes, block sizes and positions, the visible range, hit testing and
// keyboard moves. Pure: no DOM (docs/architecture.md §3.5).

/** One lane: an agent of the roster (silent ones included), or the authors outside it. */
export interface Lane {
  readonly name: string;
  /** The agent sent no message: an empty lane. */
  readonly silent: boolean;
  /** The lane of authors that are not in the roster. */
  readonly outside: boolean;
  /** Its messages, in seq order. */
  readonly seqs: Int32Array;
}

export interface SwimlaneModel {
  readonly count: number;
  readonly lanes: readonly Lane[];
  /** Lane of each message. */
  readonly laneOf: Int32Array;
  /** Index of each message in its lane's `seqs`. */
  readonly indexInLane: Int32Array;
  /** Size of each message: its tokens, or 1 where the trace logs none. */
  readonly units: Float64Array;
  /** Messages without a token count (drawn as 1 token). */
  readonly unknownTokens: number;
}

/** Name of the lane of authors that are not in the roster. */
export const outsideLaneName = '(not in the roster)';

/**
 * Lanes in roster order, one per agent, then one for authors outside the roster when any message
 * has one. A timeline whose arrays are shorter than `count` reads the missing entries as outside
 * authors with unknown tokens (bad input never crashes the view).
 */
export function swimlaneModel(agents: readonly EpisodeAgentView[], timeline: TimelineView): SwimlaneModel {
  const count = Math.max(timeline.authors.length, 0);
  const laneOf = new Int32Array(count);
  const units = new Float64Array(count);
  const sizes = new Array<number>(agents.length + 1).fill(0);
  let unknownTokens = 0;
  for (let seq = 0; seq < count; seq++) {
    const author = timeline.authors[seq];
    const lane = typeof author === 'number' && author >= 0 && author < agents.length ? author : agents.length;
    laneOf[seq] = lane;
    sizes[lane] = (sizes[lane] ?? 0) + 1;
    const tokens = timeline.tokens[seq];
    const known = typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0;
    if (!known) unknownTokens++;
    units[seq] = known ? Math.max(1, tokens) : 1;
  }
  const hasOutside = (sizes[agents.length] ?? 0) > 0;
  const seqsOf = sizes.map((size) => new Int32Array(size));
  const filled = new Array<number>(sizes.length).fill(0);
  const indexInLane = new Int32Array(count);
  for (let seq = 0; seq < count; seq++) {
    const lane = laneOf[seq] ?? 0;
    const at = filled[lane] ?? 0;
    (seqsOf[lane] as Int32Array)[at] = seq;
    indexInLane[seq] = at;
    filled[lane] = at + 1;
  }
  const lanes: Lane[] = agents.map((agent, i) => {
    const seqs = seqsOf[i] ?? new Int32Array(0);
    return { name: agent.name, silent: seqs.length === 0, outside: false, seqs };
  });
  if (hasOutside)
    lanes.push({ name: outsideLaneName, silent: false, outside: true, seqs: seqsOf[agents.length] as Int32Array });
  return { count, lanes, laneOf, indexInLane, units, unknownTokens };
}

/** Narrowest block, in px (so a one-token message stays visible and clickable). */
export const minBlockPx = 4;
/** Mean block width when the episode does not fit the viewport, in px. */
export const scrolledMeanPx = 16;
/** Widest track the view creates (well under the browsers' largest element). */
export const maxTrackPx = 8_000_000;

/** Where the blocks lie along the time axis: `starts[seq]` to `starts[seq + 1]`, in px. */
export interface BlockGeometry {
  /** Length count + 1; `starts[count]` is the track's width. */
  readonly starts: Float64Array;
  readonly total: number;
  /** The whole episode fits the viewport (no horizontal scrolling, no minimap needed). */
  readonly fits: boolean;
}

/**
 * Block widths: `minBlockPx + units × scale`, so a block grows with its tokens. When every block
 * fits at its minimum, `scale` fills the viewport exactly; otherwise the mean block is
 * {@link scrolledMeanPx} (less when the track would pass {@link maxTrackPx}) and the track scrolls.
 */
export function blockGeometry(units: Float64Array, viewportPx: number): BlockGeometry {
  const count = units.length;
  let totalUnits = 0;
  for (const u of units) totalUnits += u;
  const viewport = Math.max(0, viewportPx);
  const fits = count * minBlockPx <= viewport;
  const targetTotal = fits ? viewport : Math.min(count * scrolledMeanPx, Math.max(maxTrackPx, count * minBlockPx));
  const scale = totalUnits > 0 ? Math.max(0, targetTotal - count * minBlockPx) / totalUnits : 0;
  const starts = new Float64Array(count + 1);
  for (let seq = 0; seq < count; seq++) starts[seq + 1] = (starts[seq] ?? 0) + minBlockPx + (units[seq] ?? 0) * scale;
  return { starts, total: starts[count] ?? 0, fits };
}

/** The message whose block spans `x` (clamped to the track); -1 for an empty episode. */
export function seqAtX(geometry: BlockGeometry, x: number): number {
  const count = geometry.starts.length - 1;
  if (count <= 0) return -1;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((geometry.starts[mid] ?? 0) <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** First and last messages (inclusive) whose blocks meet `[left − overscan, left + width + overscan]`; null when empty. */
export function visibleBlocks(
  geometry: BlockGeometry,
  left: number,
  width: number,
  overscan: number,
): { first: number; last: number } | null {
  if (geometry.starts.length <= 1) return null;
  return { first: seqAtX(geometry, left - overscan), last: seqAtX(geometry, left + width + overscan) };
}

/** The `scrollLeft` that shows block `seq` whole (or its start), unchanged when it already is in view. */
export function scrollLeftFor(geometry: BlockGeometry, seq: number, left: number, width: number): number {
  const start = geometry.starts[seq] ?? 0;
  const end = geometry.starts[seq + 1] ?? start;
  if (start < left) return start;
  if (end > left + width) return Math.max(0, Math.min(start, end - width));
  return left;
}

/** A keyboard move in the timeline. */
export type LaneMove = 'left' | 'right' | 'up' | 'down' | 'first' | 'last';

/**
 * The message a move leads to from `seq`: left / right along its lane, up / down to the nearest
 * lane with messages and there to the message nearest in time, first / last message of the
 * episode. Stays at `seq` at the ends.
 */
export function moveFrom(model: SwimlaneModel, seq: number, move: LaneMove): number {
  if (model.count === 0) return -1;
  const from = Math.max(0, Math.min(model.count - 1, seq));
  if (move === 'first') return 0;
  if (move === 'last') return model.count - 1;
  const laneIndex = model.laneOf[from] ?? 0;
  const lane = model.lanes[laneIndex];
  const at = model.indexInLane[from] ?? 0;
  if (!lane) return from;
  if (move === 'left') return lane.seqs[Math.max(0, at - 1)] ?? from;
  if (move === 'right') return lane.seqs[Math.min(lane.seqs.length - 1, at + 1)] ?? from;
  const step = move === 'up' ? -1 : 1;
  for (let other = laneIndex + step; other >= 0 && other < model.lanes.length; other += step) {
    const seqs = model.lanes[other]?.seqs;
    if (seqs && seqs.length > 0) return nearestIn(seqs, from);
  }
  return from;
}

/** The entry of ascending `seqs` nearest to `seq` (the earlier one on a tie). */
export function nearestIn(seqs: Int32Array, seq: number): number {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((seqs[mid] ?? 0) < seq) lo = mid + 1;
    else hi = mid;
  }
  const after = seqs[lo];
  const before = seqs[lo - 1];
  if (after === undefined) return before ?? seq;
  if (before === undefined) return after;
  return seq - before <= after - seq ? before : after;
}
