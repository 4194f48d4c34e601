import type { FlagWindow } from '../../../src/protocol/dashboardPanel';

/** A flag window placed on a label lane so that overlapping windows do not hide each other. */
export interface WindowMark {
  readonly key: string;
  readonly flagId: number;
  readonly kind: string;
  readonly agent: string | null;
  readonly from: number;
  readonly to: number;
  readonly lane: number;
  /** "decoupling · verifier (steps 28–59)". */
  readonly label: string;
}

/** Kinds drawn as emphasised windows (the others are drawn lighter). */
export const primaryWindowKinds: readonly string[] = ['decoupling', 'idle', 'free-rider'];

/**
 * The windows of `windows` with `from ≤ to` (swapped otherwise), sorted by start, each on the first
 * lane whose previous window ended before it starts (greedy interval colouring).
 */
export function windowMarks(windows: readonly FlagWindow[]): { marks: WindowMark[]; lanes: number } {
  const sorted = windows
    .map((w) => ({ ...w, from: Math.min(w.from, w.to), to: Math.max(w.from, w.to) }))
    .sort((a, b) => a.from - b.from || b.to - a.to || a.flagId - b.flagId);
  const laneEnds: number[] = [];
  const marks = sorted.map((w) => {
    let lane = laneEnds.findIndex((end) => end < w.from);
    if (lane < 0) lane = laneEnds.length;
    laneEnds[lane] = w.to;
    const range = w.from === w.to ? `step ${String(w.from)}` : `steps ${String(w.from)}–${String(w.to)}`;
    const label = `${w.kind} · ${w.agent ?? 'team'} (${range})`;
    return {
      key: `flag-${String(w.flagId)}`,
      flagId: w.flagId,
      kind: w.kind,
      agent: w.agent,
      from: w.from,
      to: w.to,
      lane,
      label,
    };
  });
  return { marks, lanes: laneEnds.length };
}

/** CSS class of a window kind: `window-decoupling`, …; unknown kinds share `window-other`. */
export function windowClass(kind: string): string {
  const known = ['silent', 'idle', 'free-rider', 'dominant', 'decoupling'];
  return known.includes(kind) ? `window window-${kind}` : 'window window-other';
}
