import { err, ok, type Result } from './result';

/** Which episodes credit, audit and the Run Dashboard work on: training (the default), validation, or both. */
export type SplitChoice = 'train' | 'validation' | 'all';

/** The two kinds an episode's free-text `split` falls into. */
export type SplitKind = 'train' | 'validation';

export const splitChoices: readonly SplitChoice[] = ['train', 'validation', 'all'];

/** The default: training episodes only, so validation dumps never pool with training. */
export const defaultSplit: SplitChoice = 'train';

/**
 * Episode `split` values (compared lower-case) that mean held-out evaluation; every other value,
 * and no split at all, counts as training. The store's SQL filter uses the same list.
 */
export const validationSplitNames: readonly string[] = [
  'val',
  'valid',
  'validation',
  'eval',
  'evaluation',
  'test',
  'dev',
  'heldout',
];

/** The kind of an episode's `split`: `validation` for the names above, else `train`. */
export function splitKind(split: string | null | undefined): SplitKind {
  return split !== null && split !== undefined && validationSplitNames.includes(split.toLowerCase())
    ? 'validation'
    : 'train';
}

/** True when an episode with this `split` belongs to the chosen split. */
export function inSplit(split: string | null | undefined, choice: SplitChoice): boolean {
  return choice === 'all' || splitKind(split) === choice;
}

/** Parses `--split train|validation|all` (`val` is accepted for `validation`). */
export function parseSplitChoice(text: string): Result<SplitChoice> {
  const value = text.trim().toLowerCase();
  if (value === 'val') return ok('validation');
  if ((splitChoices as readonly string[]).includes(value)) return ok(value as SplitChoice);
  return err(`expected train, validation or all, got "${text}"`);
}

/**
 * run.json `splits`: folders (relative to the run folder, `/`-separated, a trailing `/` optional)
 * whose trace files are training or validation episodes, overriding what an importer guesses.
 */
export interface RunSplits {
  readonly train?: readonly string[];
  readonly validation?: readonly string[];
}

/**
 * The split run.json declares for a file: `uri` is relative to the indexed folder, so a declared
 * folder matches when its segments appear, in order and adjacent, among the file's folders (the
 * run folder may sit anywhere under the indexed one). The longest matching declaration wins;
 * undefined when none matches.
 */
export function declaredSplit(uri: string, splits: RunSplits | undefined): SplitKind | undefined {
  if (!splits) return undefined;
  const folders = uri.split('/').slice(0, -1);
  let best: { kind: SplitKind; length: number } | undefined;
  for (const kind of ['train', 'validation'] as const) {
    for (const declared of splits[kind] ?? []) {
      const segments = declared.split('/').filter((s) => s !== '' && s !== '.');
      if (segments.length > 0 && containsRun(folders, segments) && (!best || segments.length > best.length))
        best = { kind, length: segments.length };
    }
  }
  return best?.kind;
}

function containsRun(folders: readonly string[], segments: readonly string[]): boolean {
  for (let start = 0; start + segments.length <= folders.length; start++) {
    if (segments.every((s, i) => folders[start + i] === s)) return true;
  }
  return false;
}
