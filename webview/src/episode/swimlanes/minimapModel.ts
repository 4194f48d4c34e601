import type { BlockGeometry, SwimlaneModel } from './model';

// The minimap's model: the whole episode in a fixed number of columns, one row per lane. Pure: no DOM.

/** One column of one lane: the messages of the lane whose blocks start in the column. */
export interface MinimapCell {
  readonly column: number;
  readonly lane: number;
  readonly messages: number;
  /** Mean credit of those messages that have a value; null when none has. */
  readonly mean: number | null;
}

/** Columns of the minimap (fewer for a short episode: one per message). */
export const minimapColumns = 200;

/**
 * The cells that hold messages (empty cells are not listed), columns cut along the time axis
 * (block positions, not seq), so the window drawn over them matches what the lanes show.
 */
export function minimapCells(
  model: SwimlaneModel,
  geometry: BlockGeometry,
  value: (seq: number) => number | null,
  columns = minimapColumns,
): { columns: number; cells: MinimapCell[] } {
  const cols = Math.max(1, Math.min(columns, model.count));
  const lanes = model.lanes.length;
  const counts = new Float64Array(cols * lanes);
  const sums = new Float64Array(cols * lanes);
  const valued = new Float64Array(cols * lanes);
  const total = geometry.total > 0 ? geometry.total : 1;
  for (let seq = 0; seq < model.count; seq++) {
    const column = Math.min(cols - 1, Math.floor(((geometry.starts[seq] ?? 0) / total) * cols));
    const key = column * lanes + (model.laneOf[seq] ?? 0);
    counts[key] = (counts[key] ?? 0) + 1;
    const v = value(seq);
    if (v !== null && Number.isFinite(v)) {
      sums[key] = (sums[key] ?? 0) + v;
      valued[key] = (valued[key] ?? 0) + 1;
    }
  }
  const cells: MinimapCell[] = [];
  for (let key = 0; key < counts.length; key++) {
    const messages = counts[key] ?? 0;
    if (messages === 0) continue;
    const n = valued[key] ?? 0;
    cells.push({
      column: Math.floor(key / lanes),
      lane: key % lanes,
      messages,
      mean: n > 0 ? (sums[key] ?? 0) / n : null,
    });
  }
  return { columns: cols, cells };
}

/** The part of the track in view, as fractions of its width: `[start, start + size]` within [0, 1]. */
export function windowFraction(left: number, width: number, total: number): { start: number; size: number } {
  if (!(total > 0)) return { start: 0, size: 1 };
  const size = Math.min(1, Math.max(0, width) / total);
  return { start: Math.max(0, Math.min(1 - size, left / total)), size };
}

/** The `scrollLeft` that centres the view on `fraction` of the track (clamped to the track). */
export function leftForFraction(fraction: number, width: number, total: number): number {
  const f = Number.isFinite(fraction) ? Math.max(0, Math.min(1, fraction)) : 0;
  return Math.max(0, Math.min(Math.max(0, total - width), f * total - width / 2));
}
