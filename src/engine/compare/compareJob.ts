import { resolve } from 'node:path';
import type { CompareRunChoice, ComparisonSide, RunComparison } from '../../core/runComparison';
import { IndexStore } from '../../store/indexStore';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';
import { CompareService } from './compareService';

export interface CompareJobOptions {
  /** The indexed folder of side A (and of B unless `rootB` is given). */
  readonly root: string;
  /** Side B's folder when it is another indexed folder. */
  readonly rootB?: string;
  /** Side A's index file (`--db`). */
  readonly dbPath?: string;
  /** Side A's run (default: the folder's only run). */
  readonly run?: string;
  /** Side B's run (default: A's run in one folder, the only run of `rootB`). */
  readonly vsRun?: string;
  readonly steps?: readonly [number, number];
  readonly vsSteps?: readonly [number, number];
  readonly method: string;
}

/** The sides as given do not make a comparison (the same run and steps twice, a run not named): a usage error. */
export class CompareArgumentError extends Error {}

/**
 * Opens the index (or both indexes) and compares the two sides with {@link CompareService}
 * (docs/credit-methods.md §5.5). Throws {@link NoIndexError} for a folder with no index,
 * {@link CompareArgumentError} for sides that cannot be told apart or a run that must be named,
 * and the service's plain Error for an unknown run or a side without stored credit.
 */
export function compareRuns(options: CompareJobOptions): RunComparison {
  const pathA = indexPath(options.root, options.dbPath);
  const pathB = options.rootB === undefined ? pathA : indexPath(options.rootB);
  const storeA = IndexStore.open(pathA);
  const storeB = pathB === pathA ? storeA : IndexStore.open(pathB);
  try {
    const rootB = options.rootB ?? options.root;
    const b = storeB === storeA ? {} : { b: { db: storeB.db, root: rootB } };
    const service = new CompareService(storeA.db, { root: options.root, ...b });
    const runA = options.run ?? onlyRun(service.choices(), options.root, '--run');
    const runB =
      options.vsRun ?? (storeB === storeA ? runA : onlyRun(new CompareService(storeB.db).choices(), rootB, '--vs-run'));
    const a = side(runA, options.steps);
    const other = side(runB, options.vsSteps);
    if (storeB === storeA && sameSide(a, other))
      throw new CompareArgumentError(
        `both sides are ${runA}${options.steps ? ` steps ${options.steps.join('..')}` : ''}: give --vs-run NAME, or --steps A..B --vs C..D`,
      );
    return service.compare({ a, b: other, method: options.method });
  } finally {
    if (storeB !== storeA) storeB.close();
    storeA.close();
  }
}

function indexPath(root: string, dbPath?: string): string {
  const location = findIndexLocation(root, dbPath);
  if (!location) throw new NoIndexError(`no index for ${root}; run \`credit-lens index ${root}\` first`);
  return resolve(location.path);
}

function onlyRun(choices: readonly CompareRunChoice[], root: string, flag: string): string {
  const [first, ...others] = choices;
  if (first && others.length === 0) return first.run;
  if (!first) throw new CompareArgumentError(`${root} holds no indexed run`);
  throw new CompareArgumentError(
    `${root} holds ${String(choices.length)} runs (${choices.map((c) => c.run).join(', ')}): name one with ${flag}`,
  );
}

function side(run: string, steps: readonly [number, number] | undefined): Omit<ComparisonSide, 'label'> {
  return steps ? { run, steps: { from: steps[0], to: steps[1] } } : { run };
}

function sameSide(a: Omit<ComparisonSide, 'label'>, b: Omit<ComparisonSide, 'label'>): boolean {
  return a.run === b.run && a.steps?.from === b.steps?.from && a.steps?.to === b.steps?.to;
}
