import type { CompareRunChoice, ComparisonRequest } from '../../../src/core/runComparison';
import type { CompareSide } from '../../../src/protocol/comparePanel';

// What the Compare view's form offers and reads back: the runs of each side, their steps, the
// methods both sides have stored, and a saved request held against the runs of the index now.
// Pure: no DOM.

/** What a side's controls hold: the run (by position in the choices) and the step fields as typed. */
export interface SideInput {
  readonly run: number;
  readonly from: string;
  readonly to: string;
}

/** The form's selection. */
export interface PickerSelection {
  readonly a: SideInput;
  readonly b: SideInput;
  readonly method: string | null;
}

/** A side read from its inputs, or why it cannot be compared (a sentence for the form). */
export type SideReading =
  { readonly ok: true; readonly side: CompareSide } | { readonly ok: false; readonly error: string };

/** The methods with stored credit on both runs, in A's order. */
export function commonMethods(a: CompareRunChoice | undefined, b: CompareRunChoice | undefined): string[] {
  if (!a || !b) return [];
  return a.methods.filter((m) => b.methods.includes(m));
}

/** `method` when both runs have it, else the default when they do, else their first common method. */
export function chooseMethod(methods: readonly string[], method: string | null, fallback: string): string | null {
  if (method !== null && methods.includes(method)) return method;
  if (methods.includes(fallback)) return fallback;
  return methods[0] ?? null;
}

/**
 * A side from its inputs: every step when both fields are empty; an empty end takes the run's own;
 * anything but integers, a range outside the run's steps or an empty range is an error.
 */
export function readSide(choice: CompareRunChoice | undefined, input: SideInput, name: string): SideReading {
  if (!choice) return { ok: false, error: `Side ${name}: choose a run.` };
  const from = input.from.trim();
  const to = input.to.trim();
  if (from === '' && to === '') return { ok: true, side: { run: choice.run } };
  const extent = choice.steps;
  if (!extent)
    return {
      ok: false,
      error: `Side ${name}: run ${choice.run || '(root)'} logs no steps, so it cannot be cut by step.`,
    };
  const low = from === '' ? extent.from : Number(from);
  const high = to === '' ? extent.to : Number(to);
  if (!Number.isSafeInteger(low) || !Number.isSafeInteger(high))
    return { ok: false, error: `Side ${name}: steps must be whole numbers.` };
  if (low > high) return { ok: false, error: `Side ${name}: the range ${String(low)}–${String(high)} is empty.` };
  if (high < extent.from || low > extent.to)
    return {
      ok: false,
      error: `Side ${name}: steps ${String(low)}–${String(high)} lie outside the run's steps ${String(extent.from)}–${String(extent.to)}.`,
    };
  return { ok: true, side: { run: choice.run, steps: { from: low, to: high } } };
}

/**
 * The selection to show: the saved request's runs, steps and method when the index still has
 * those runs (else a note naming what was dropped); otherwise the first run as A and the second (or
 * the same, to compare two step ranges) as B, under the default method when both have it.
 */
export function initialSelection(
  runs: readonly CompareRunChoice[],
  saved: ComparisonRequest | null,
  defaultMethod: string,
): { readonly selection: PickerSelection; readonly restored: boolean; readonly note: string | null } {
  const position = (run: string): number => runs.findIndex((r) => r.run === run);
  if (saved) {
    const a = position(saved.a.run);
    const b = position(saved.b.run);
    if (a >= 0 && b >= 0) {
      const method = chooseMethod(commonMethods(runs[a], runs[b]), saved.method, defaultMethod);
      return { selection: { a: sideInput(a, saved.a), b: sideInput(b, saved.b), method }, restored: true, note: null };
    }
  }
  const a = 0;
  const b = runs.length > 1 ? 1 : 0;
  const method = chooseMethod(commonMethods(runs[a], runs[b]), null, defaultMethod);
  const selection = { a: { run: a, from: '', to: '' }, b: { run: b, from: '', to: '' }, method };
  const note = saved ? 'The runs compared last are no longer in the index: choose two runs.' : null;
  return { selection, restored: false, note };
}

function sideInput(run: number, side: CompareSide): SideInput {
  return { run, from: side.steps ? String(side.steps.from) : '', to: side.steps ? String(side.steps.to) : '' };
}
