/** Counters of one indexing pass; also the payload of progress reports. */
export interface IndexTally {
  phase: 'index' | 'search';
  filesTotal: number;
  filesDone: number;
  /** Files not read because their run's manifest is unusable. */
  filesSkipped: number;
  filesUnchanged: number;
  filesAppended: number;
  filesReindexed: number;
  removedFiles: number;
  /** Side files (configs, metrics, checkpoints) seen in this pass: listed, not read. */
  otherFiles: number;
  bytesTotal: number;
  /** Bytes read in this pass (new or re-read). */
  bytesRead: number;
  /** Bytes of all files accounted for so far (read or already indexed). */
  bytesDone: number;
  episodesAdded: number;
  /** Episodes skipped without an issue: rows repeated across files with the same id and content (TRL). */
  repeatsSkipped: number;
  /** Lines (records, for files read whole) read in this pass. */
  linesRead: number;
  issues: number;
  searchEpisodes: number;
  /** Problems that stop a whole run from being read. */
  fatal: string[];
  cancelled: boolean;
  elapsedMs: number;
  /** Time spent reading trace lines into the index (the first phase). */
  indexMs: number;
  /** Time spent filling the full-text index (the second phase). */
  searchMs: number;
}

export type IndexProgress = Readonly<IndexTally>;

export function emptyTally(): IndexTally {
  return {
    phase: 'index',
    filesTotal: 0,
    filesDone: 0,
    filesSkipped: 0,
    filesUnchanged: 0,
    filesAppended: 0,
    filesReindexed: 0,
    removedFiles: 0,
    otherFiles: 0,
    bytesTotal: 0,
    bytesRead: 0,
    bytesDone: 0,
    episodesAdded: 0,
    repeatsSkipped: 0,
    linesRead: 0,
    issues: 0,
    searchEpisodes: 0,
    fatal: [],
    cancelled: false,
    elapsedMs: 0,
    indexMs: 0,
    searchMs: 0,
  };
}
