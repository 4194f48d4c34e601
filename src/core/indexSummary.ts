/** One run as the index sees it. */
export interface RunSummary {
  readonly name: string;
  /** Folder relative to the indexed folder (`''` = the folder itself). */
  readonly root: string;
  readonly mechanism: string | null;
  readonly episodes: number;
  readonly messages: number;
  /** Agents in roster order of first appearance, with how many episodes list them. */
  readonly agents: readonly { readonly name: string; readonly kind: string; readonly episodes: number; readonly messages: number }[];
  readonly steps: { readonly count: number; readonly min: number | null; readonly max: number | null };
  readonly meanReward: number | null;
}

/** One trace file and the importer that read it. */
export interface SourceSummary {
  /** Path relative to the indexed folder. */
  readonly file: string;
  /** The importer (source.format), e.g. `credit_lens_jsonl`, `verl`; `unknown` when none recognised the file. */
  readonly format: string;
  readonly episodes: number;
  readonly errors: number;
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
