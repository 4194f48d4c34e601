import type { IndexProgress, IndexTally } from '../core/indexProgress';
import { formatIssue, inferredRunsLine, type IndexSummary, type RunSummary } from '../core/indexSummary';
import { plural } from '../core/plural';

// The words the extension shows about an indexing pass: notification, progress and log text.
// Pure functions of the engine's tally and summary, so they are tested without VS Code.

/** `1920` → `1,920` (fixed `en-US` grouping, so logs read the same everywhere). */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 file`, `2 files`: core/plural.ts, the one pluralising helper. */
export { plural };

/**
 * The notification after a pass, e.g.
 * `Indexed 3 files: 1,920 episodes, 5,760 messages, 5 agents; 2 lines with errors`.
 * Counts are of the whole index (the summary); a cancelled pass says how far it got.
 */
export function formatIndexResult(summary: IndexSummary, tally: IndexTally): string {
  const contents = `${plural(summary.episodes, 'episode')}, ${plural(summary.messages, 'message')}, ${plural(summary.agents, 'agent')}`;
  const head = tally.cancelled
    ? `Indexing cancelled after ${count(tally.filesDone)} of ${plural(tally.filesTotal, 'file')}; the index holds ${contents}`
    : `Indexed ${plural(summary.files, 'file')}: ${contents}`;
  const problems = [
    ...(summary.errorCount > 0 ? [`${plural(summary.errorCount, 'line')} with errors`] : []),
    ...(tally.fatal.length > 0 ? [`${plural(tally.fatal.length, 'run')} skipped (unreadable run.json)`] : []),
  ];
  return problems.length > 0 ? `${head}; ${problems.join('; ')}` : head;
}

/** The progress notification's message: where the pass is, in files and episodes. */
export function formatProgressMessage(progress: IndexProgress): string {
  if (progress.phase === 'search') return `Building the search index (${plural(progress.searchEpisodes, 'episode')})`;
  return `${count(progress.filesDone)} of ${plural(progress.filesTotal, 'file')}, ${plural(progress.episodesAdded, 'episode')} added`;
}

/** How far a pass is, in percent [0, 100], by bytes accounted for (by files when sizes are zero). */
export function progressPercent(progress: IndexProgress): number {
  if (progress.bytesTotal > 0) return Math.min(100, (100 * progress.bytesDone) / progress.bytesTotal);
  if (progress.filesTotal > 0) return Math.min(100, (100 * progress.filesDone) / progress.filesTotal);
  return 0;
}

/**
 * `window.withProgress` takes increments, not totals: the step from the percent already reported
 * to this report's percent. Never negative, so a report that goes backwards does not shrink the bar.
 */
export function progressIncrement(
  reportedPercent: number,
  progress: IndexProgress,
): { percent: number; increment: number } {
  const percent = Math.max(reportedPercent, progressPercent(progress));
  return { percent, increment: percent - reportedPercent };
}

/** The log lines of a finished pass: what was done, what the index holds, every listed problem. */
export function formatIndexLog(folder: string, indexPath: string, summary: IndexSummary, tally: IndexTally): string[] {
  const pass = [
    `${count(tally.filesReindexed)} read in full`,
    `${count(tally.filesAppended)} appended`,
    `${count(tally.filesUnchanged)} unchanged`,
    ...(tally.removedFiles > 0 ? [`${count(tally.removedFiles)} removed`] : []),
  ].join(', ');
  const state = tally.cancelled ? 'cancelled after' : 'took';
  return [
    `Indexed ${folder} into ${indexPath}`,
    `This pass: +${plural(tally.episodesAdded, 'episode')}; files: ${pass}; ${state} ${(tally.elapsedMs / 1000).toFixed(2)} s`,
    ...formatSummaryLog(summary),
    ...tally.fatal.map((fatal) => `Run skipped: ${fatal}`),
  ];
}

/** The index's contents as log lines, then each listed error as `file:line: reason`. */
export function formatSummaryLog(summary: IndexSummary): string[] {
  const lines = [
    `Index: ${plural(summary.files, 'file')}, ${plural(summary.episodes, 'episode')}, ${plural(summary.messages, 'message')}, ` +
      `${plural(summary.agents, 'agent')}, ${plural(summary.steps, 'step')}, ${count(summary.searchableEpisodes)} searchable`,
    ...inferredRuns(summary),
    ...summary.runs.map(formatRunLog),
    ...(summary.otherFiles?.length
      ? [`Other files (configs, metrics, checkpoints; not read): ${count(summary.otherFiles.length)}`]
      : []),
    ...(summary.repeatedRows ? [`Repeated rows skipped (counted, not errors): ${count(summary.repeatedRows)}`] : []),
    `Errors: ${count(summary.errorCount)}`,
    ...summary.errors.map(formatIssue),
  ];
  const unlisted = summary.errorCount - summary.errors.length;
  if (unlisted > 0) lines.push(`… and ${count(unlisted)} more (run \`credit-lens info\` for the totals)`);
  return lines;
}

function inferredRuns(summary: IndexSummary): string[] {
  const line = inferredRunsLine(summary.runs);
  return line ? [`${line.charAt(0).toUpperCase()}${line.slice(1)}`] : [];
}

function formatRunLog(run: RunSummary): string {
  const mechanism = run.mechanism ? ` (${run.mechanism})` : '';
  const agents =
    run.agents.map((a) => `${a.name} ${count(a.episodes)} ep / ${count(a.messages)} msg`).join('; ') || 'no agents';
  const note = run.layoutNote ? ` (note: ${run.layoutNote})` : '';
  return `Run ${run.name || '(root)'}${mechanism}: ${plural(run.episodes, 'episode')}, ${plural(run.messages, 'message')}; ${agents}${note}`;
}

/**
 * A fatal error of an index pass (`'index'`) or of reading an index (`'read'`) as an actionable
 * sentence for `showErrorMessage`, without a stack trace: what failed for which folder, what to do.
 */
export function describeIndexFailure(folder: string, message: string, action: 'index' | 'read' = 'index'): string {
  if (
    /NODE_MODULE_VERSION|compiled against a different Node\.js version|invalid ELF header|was compiled for/i.test(
      message,
    )
  ) {
    return (
      'Credit Lens could not load its SQLite driver (better-sqlite3) in this VS Code: it was built for a ' +
      'different runtime. Install the Credit Lens package built for your platform, or rebuild better-sqlite3 ' +
      "for VS Code's Electron. Details are in the Credit Lens log."
    );
  }
  if (/run folder not found/.test(message))
    return `Credit Lens: the folder ${folder} does not exist or is not a folder.`;
  if (/SQLITE_BUSY|database is locked/i.test(message)) {
    return `Credit Lens: the index of ${folder} is locked by another process (another indexing run?). Try again when it finishes.`;
  }
  if (/SQLITE_READONLY|EACCES|EPERM|EROFS/i.test(message)) {
    return `Credit Lens cannot write the index of ${folder}: ${message}. Check the folder's permissions.`;
  }
  const failed = action === 'index' ? 'index' : 'read the index of';
  return `Credit Lens could not ${failed} ${folder}: ${message}. See the Credit Lens log for details.`;
}
