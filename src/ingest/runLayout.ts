// Runs inferred from the producers' layouts (issue 12): a folder holding several experiments is
// several runs, not one merged run. Used by scanRunFolder for the files no run.json claims.

/** What the scan saw in one folder. */
export interface FolderListing {
  /** Folder relative to the indexed folder (`''` = itself). */
  readonly rel: string;
  /** Base name (the indexed folder's own name for `''`). */
  readonly name: string;
  readonly files: readonly string[];
  readonly folders: readonly string[];
}

/** A producer's layout: which folder is the experiment a folder of its files belongs to. */
export interface LayoutRule {
  /** Shown in the index summary, e.g. `verl`. */
  readonly layout: string;
  /** The experiment folder (relative) when `folder` looks like this producer's, else undefined. */
  experimentOf(folder: FolderListing): string | undefined;
}

/** An experiment found from the layout: one run. */
export interface InferredRun {
  readonly root: string;
  readonly layout: string;
  /** Set when the layout is ambiguous: what was assumed and how to say otherwise (run.json). */
  readonly note?: string;
}

/** Names of verl dump folders that hold one split of an experiment (`trainer.rollout_data_dir`, `validation_data_dir`). */
const splitFolderNames =
  /^(rollouts?|rollout_data|generations|train(ing)?|val(id|idation)?|eval(uation)?|test)(_data|_dumps?|_generations)?$/i;
const verlStepFile = /^\d+\.jsonl$/;

/** The parent of a relative folder (`''` stays `''`). */
export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

/** The layouts known: verl step dumps, TRL `output_dir/completions/`, C3 run folders, rLLM `episodes/`. */
export const layoutRules: readonly LayoutRule[] = [
  {
    layout: 'c3',
    experimentOf: (f) => (f.files.includes('run_config.json') ? f.rel : undefined),
  },
  {
    layout: 'trl',
    experimentOf: (f) =>
      f.name === 'completions' && f.files.some((n) => /^completions_\d+\.parquet$/.test(n))
        ? parentOf(f.rel)
        : undefined,
  },
  {
    layout: 'rllm',
    experimentOf: (f) =>
      f.name === 'episodes' &&
      (f.folders.some((n) => /_step_\d+/.test(n)) || f.files.some((n) => /^episode_.*\.json$/.test(n)))
        ? parentOf(f.rel)
        : undefined,
  },
  {
    layout: 'verl',
    experimentOf: (f) => {
      if (!f.files.some((n) => verlStepFile.test(n))) return undefined;
      return f.rel !== '' && splitFolderNames.test(f.name) ? parentOf(f.rel) : f.rel;
    },
  },
];

/**
 * The experiments under the folders listed (those no run.json claims): each rule is asked about
 * each folder; the first rule that names an experiment for a folder wins it. Ambiguities get a
 * note: verl dump folders with names that are not split names, side by side (splits of one
 * experiment, or several experiments? they are taken as several).
 */
export function inferRuns(
  folders: readonly FolderListing[],
  rules: readonly LayoutRule[] = layoutRules,
): InferredRun[] {
  const found = new Map<string, InferredRun>();
  const verlOwn = new Map<string, string[]>();
  for (const folder of folders) {
    for (const rule of rules) {
      const root = rule.experimentOf(folder);
      if (root === undefined) continue;
      if (!found.has(root)) found.set(root, { root, layout: rule.layout });
      if (rule.layout === 'verl' && root === folder.rel && folder.rel !== '')
        verlOwn.set(parentOf(folder.rel), [...(verlOwn.get(parentOf(folder.rel)) ?? []), folder.rel]);
      break;
    }
  }
  for (const [parent, roots] of verlOwn) {
    if (roots.length < 2) continue;
    const where = parent === '' ? 'the indexed folder' : `${parent}/`;
    const note = `${where} holds several step-dump folders (${roots.map(baseOf).join(', ')}), indexed as one run each; if they are splits of one experiment, add a run.json to ${where}`;
    for (const root of roots) found.set(root, { root, layout: 'verl', note });
  }
  return [...found.values()].sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
}

/** The nearest experiment holding a folder (the folder itself or an ancestor), if any. */
export function experimentHolding(rel: string, experiments: ReadonlySet<string>): string | undefined {
  for (let at = rel; ; at = parentOf(at)) {
    if (experiments.has(at)) return at;
    if (at === '') return undefined;
  }
}

function baseOf(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}
