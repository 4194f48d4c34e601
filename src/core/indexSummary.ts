/** One run as the index sees it. */
export interface RunSummary {
  readonly name: string;
  /** Folder relative to the indexed folder (`''` = the folder itself). */
  readonly root: string;
  readonly mechanism: string | null;
  readonly episodes: number;
  readonly messages: number;
  /** Agents in roster order of first appearance, with how many episodes list them. */
  readonly agents: readonly {
    readonly name: string;
    readonly kind: string;
    readonly episodes: number;
    readonly messages: number;
  }[];
  readonly steps: { readonly count: number; readonly min: number | null; readonly max: number | null };
  readonly meanReward: number | null;
  /** The producer whose folder layout made the folder a run (no run.json), e.g. `verl`; null otherwise. */
  readonly layout?: string | null;
  /** Where the layout is ambiguous: what was assumed, and the run.json that would say otherwise. */
  readonly layoutNote?: string | null;
}

/** One trace file and the importer that read it. */
export interface SourceSummary {
  /** Path relative to the indexed folder. */
  readonly file: string;
  /** The importer (source.format), e.g. `credit_lens_jsonl`, `verl`; `unknown` when none recognised the file. */
  readonly format: string;
  readonly episodes: number;
  readonly errors: number;
  /** Rows skipped as repeats of rows already indexed (counted, not errors). */
  readonly repeats?: number;
}

/** How many files and episodes one importer read. */
export interface FormatSummary {
  readonly format: string;
  readonly files: number;
  readonly episodes: number;
}

/** A located problem, as shown to users: `file:line: reason`. */
export interface IssueSummary {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

/** What `credit-lens info` prints: everything in the index, in numbers. */
export interface IndexSummary {
  readonly files: number;
  readonly runs: readonly RunSummary[];
  readonly episodes: number;
  readonly messages: number;
  readonly agents: number;
  readonly steps: number;
  /** Episodes whose message text is in the full-text index. */
  readonly searchableEpisodes: number;
  readonly errorCount: number;
  /** The first errors in file and line order (see `errorCount` for the total). */
  readonly errors: readonly IssueSummary[];
  /** Every trace file with its detected format, in path order. */
  readonly sources?: readonly SourceSummary[];
  /** Files and episodes per format, most files first. */
  readonly formats?: readonly FormatSummary[];
  /** Side files and folders (configs, metrics, checkpoints; a folder ends with `/`), in path order: listed, not read. */
  readonly otherFiles?: readonly string[];
  /** Rows skipped, over all sources, as repeats of rows already indexed (the same generation logged at several steps). */
  readonly repeatedRows?: number;
}

/** The runs made from the producers' layouts, as the summary says it: `2 runs inferred from the layout: a (verl), b (verl)`; undefined when none. */
export function inferredRunsLine(runs: readonly RunSummary[]): string | undefined {
  const inferred = runs.filter((r) => r.layout);
  if (inferred.length === 0) return undefined;
  const names = inferred.map((r) => `${r.name || '(root)'} (${r.layout ?? ''})`).join(', ');
  return `${inferred.length} ${inferred.length === 1 ? 'run' : 'runs'} inferred from the layout: ${names}`;
}

/** Files and episodes per format, most files first (ties by name). */
export function formatCounts(sources: readonly SourceSummary[]): FormatSummary[] {
  const byFormat = new Map<string, { files: number; episodes: number }>();
  for (const s of sources) {
    const entry = byFormat.get(s.format) ?? { files: 0, episodes: 0 };
    entry.files++;
    entry.episodes += s.episodes;
    byFormat.set(s.format, entry);
  }
  return [...byFormat]
    .map(([format, c]) => ({ format, ...c }))
    .sort((a, b) => b.files - a.files || (a.format < b.format ? -1 : a.format > b.format ? 1 : 0));
}

/** `file:line: reason`, the form editors and terminals turn into links. */
export function formatIssue(issue: IssueSummary): string {
  return `${issue.file}:${issue.line}: ${issue.reason}`;
}
