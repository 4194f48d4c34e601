import type { ComparisonSide, FlagChange } from '../../core/runComparison';
import type { BrowseFlag } from '../../store/browseRepository';

/** A side's stored flags, or undefined when its run was never audited. */
export type SideFlags = readonly BrowseFlag[] | undefined;

/**
 * The flags (kind and agent) present on one side and not the other, or on both (credit-methods.md
 * §5.5). A side with step bounds keeps the flags whose step window overlaps them, and flags with no
 * window (episode or run scope). Several flags of one kind and agent merge into one window, from
 * the first step to the last. Empty when a side was never audited (the caller says so). Sorted by
 * agent, then kind.
 */
export function flagChanges(a: ComparisonSide, flagsA: SideFlags, b: ComparisonSide, flagsB: SideFlags): FlagChange[] {
  if (!flagsA || !flagsB) return [];
  const onA = flagWindows(flagsA, a.steps);
  const onB = flagWindows(flagsB, b.steps);
  const keys = [...new Set([...onA.keys(), ...onB.keys()])].sort();
  return keys.map((key) => {
    const [agent = '', kind = ''] = key.split('\u0000');
    const stepsA = onA.get(key);
    const stepsB = onB.get(key);
    return {
      agent,
      kind,
      change: stepsA === undefined ? 'appeared' : stepsB === undefined ? 'disappeared' : 'kept',
      ...(stepsA && stepsA !== noWindow ? { stepsA } : {}),
      ...(stepsB && stepsB !== noWindow ? { stepsB } : {}),
    };
  });
}

/** Marks a flag kept without a step window. */
const noWindow: readonly [number, number] = [NaN, NaN];

function flagWindows(
  flags: readonly BrowseFlag[],
  bounds: ComparisonSide['steps'],
): Map<string, readonly [number, number]> {
  const windows = new Map<string, readonly [number, number]>();
  for (const flag of flags) {
    const steps = flag.steps;
    if (steps && bounds && (steps[1] < bounds.from || steps[0] > bounds.to)) continue;
    const key = `${flag.agent ?? ''}\u0000${flag.kind}`;
    const known = windows.get(key);
    if (!steps) {
      if (!known) windows.set(key, noWindow);
      continue;
    }
    windows.set(
      key,
      known && known !== noWindow ? [Math.min(known[0], steps[0]), Math.max(known[1], steps[1])] : steps,
    );
  }
  return windows;
}
