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
}

/** `file:line: reason`, the form editors and terminals turn into links. */
export function formatIssue(issue: IssueSummary): string {
  return `${issue.file}:${issue.line}: ${issue.reason}`;
}
