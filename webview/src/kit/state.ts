import { isRecord } from '../../../src/protocol/ipc';
import { formatInt } from './format';

// The one restore policy of the views' saved UI state (docs/architecture.md §5), in two halves:
// 1. shape: a state saved under another version is dropped whole; within the version, a field that
//    fails its check falls back to its initial value alone, so one stale field costs nothing else;
// 2. fit: what survived is held against the data shown now (the run, the episode): positions are
//    clamped, ranges clamped or dropped, values the data does not have dropped, and what the user
//    had chosen but lost is said in words (a note), never silently.
// Pure: no DOM.

/** The checks of a state's fields, each a guard of the field's type. */
export type FieldChecks<S> = { readonly [K in keyof S]-?: (value: unknown) => value is S[K] };

/** `check`, also passing null (a field that may be unset). */
export const orNull =
  <T>(check: (value: unknown) => value is T) =>
  (value: unknown): value is T | null =>
    value === null || check(value);

/** The first half of the policy: `saved` restored onto `initial` field by field (see above). */
export function restoreFields<S extends { readonly version: number }>(
  saved: unknown,
  initial: S,
  checks: FieldChecks<Omit<S, 'version'>>,
): S {
  if (!isRecord(saved) || saved['version'] !== initial.version) return initial;
  const restored: Record<string, unknown> = { ...initial };
  for (const [key, check] of Object.entries<(value: unknown) => boolean>(checks))
    if (check(saved[key])) restored[key] = saved[key];
  return restored as S;
}

/** A value fitted to the data, and what the user should be told about it (null: nothing was lost). */
export interface Fitted<T> {
  readonly value: T;
  readonly note: string | null;
}

/** An inclusive range, either end open (null). */
export interface Range {
  readonly from: number | null;
  readonly to: number | null;
}

/** The inclusive bounds of the data (null when it has none, e.g. a run without steps). */
export interface Bounds {
  readonly min: number | null;
  readonly max: number | null;
}

const openRange: Range = { from: null, to: null };

/**
 * The second half for a range of integers named `what` (e.g. "steps"): kept when inside `bounds`,
 * clamped to them when it overlaps them, dropped when it lies outside them or the data has no
 * bounds; a clamp or a drop comes with its note.
 */
export function fitRange(range: Range, bounds: Bounds, what: string): Fitted<Range> {
  if (range.from === null && range.to === null) return { value: range, note: null };
  const saved = `${what} ${describeRange(range)}`;
  const { min, max } = bounds;
  if (min === null || max === null) return { value: openRange, note: `${saved} dropped (this run has no ${what})` };
  const has = `this run has ${what} ${describeRange({ from: min, to: max })}`;
  const low = range.from ?? min;
  const high = range.to ?? max;
  if (low > max || high < min || low > high) return { value: openRange, note: `${saved} dropped (${has})` };
  // Only an end outside the data moves; an open end stays open.
  const value = {
    from: range.from === null ? null : Math.max(range.from, min),
    to: range.to === null ? null : Math.min(range.to, max),
  };
  if (value.from === range.from && value.to === range.to) return { value: range, note: null };
  return { value, note: `${saved} clamped to ${describeRange(value)} (${has})` };
}

/** `24–40`, `…–40`, `24–…`. */
export function describeRange({ from, to }: Range): string {
  return `${from === null ? '…' : formatInt(from)}–${to === null ? '…' : formatInt(to)}`;
}

/** `index` clamped to the positions 0 … count − 1 of the data (0 when it is empty). */
export function clampIndex(index: number, count: number): number {
  return Math.max(0, Math.min(index, count - 1));
}

/** `value` when the data `has` it; else null with a note naming it as `what` (e.g. "agent"). */
export function fitChoice<T extends string>(
  value: T | null | undefined,
  has: (value: T) => boolean,
  what: string,
): Fitted<T | null> {
  if (value === null || value === undefined) return { value: null, note: null };
  return has(value) ? { value, note: null } : { value: null, note: `${what} ${value} dropped (not in this run)` };
}
