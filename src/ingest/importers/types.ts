import type { AgentDecl, Episode } from '../../core/episode';
import type { Result } from '../../core/result';
import type { RewardWeights } from '../../core/runManifest';
import type { RunSplits } from '../../core/split';

// The contract between the indexer and the format importers (issue 7). A *container* is how records
// are read from a file (streamed, never parsed whole); a *mapper* turns one record into canonical
// episodes. The indexer stores each episode's record locator (episode.line / byte_offset /
// byte_length) and the file's format (source.format), and readEpisode reads the record back through
// the same container and mapper, so the raw record stays recoverable.

/** How records are read from a file. */
export type ContainerKind =
  /** One JSON value per line (.jsonl, .ndjson). Locator: the line's byte range. */
  | 'jsonl'
  /** One JSON document (.json): the document itself, the elements of its top-level array, or of one property's array. Locator: the record's byte range. */
  | 'json'
  /** A zip archive of JSON entries (Inspect .eval). Locator: the entry's local-header offset and compressed length. */
  | 'zip'
  /** Apache Parquet rows (TRL completions). Locator: the row index in `offset`, length 0. */
  | 'parquet';

/** Where a record sits in its file (1-based `line` where it starts; `offset`/`length` as its container defines). */
export interface RecordLocator {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
}

/** What a mapper knows about the record it maps. */
export interface RecordContext {
  /** The file, relative to the indexed folder, `/`-separated. */
  readonly uri: string;
  /** The file's base name, e.g. `12.jsonl`, `completions_00010.parquet`. */
  readonly fileName: string;
  /**
   * 0-based position of the record in its file, the same when the record is read back alone: for
   * 'jsonl' the 0-based line number (blank lines count), for 'json' the element's position in its
   * array (0 for a root record), for 'zip' the entry's position in the archive, for 'parquet' the
   * row index.
   */
  readonly index: number;
  /** 1-based line where the record starts (the row number + 1 for parquet, the entry number + 1 for zip). */
  readonly line: number;
  /** The run manifest's declared roster (may be empty); the same when the record is read back. */
  readonly roster: readonly AgentDecl[];
  /** The run manifest's `splits` (which folders hold training or validation dumps); the same when read back. */
  readonly splits?: RunSplits;
  /** The run manifest's `rewardWeights` (reward-function weights by column name); the same when read back. */
  readonly rewardWeights?: RewardWeights;
  /**
   * File-level metadata a container provides. 'zip': the parsed header entry (see
   * {@link FormatMapper.zipHeader}; `{}` when absent or unreadable) plus the record's entry name as
   * `entry`. 'json' with a `{property}` selection: the root object's other properties that come
   * before the records array (those up to 1 MiB in all), e.g. an Inspect log's `eval` and `plan`.
   */
  readonly header?: Readonly<Record<string, unknown>>;
  /**
   * The files the record links to ({@link FormatMapper.linkedFiles}), read by the indexer (the
   * mapper stays pure), keyed by their path relative to the indexed folder, `/`-separated; each the
   * parsed JSON document or why it could not be read. Absent when the mapper links no files.
   */
  readonly linked?: Readonly<Record<string, LinkedFile>>;
}

/** A linked file as the indexer read it: its parsed JSON, or why not (missing, too large, not JSON, outside the folder). */
export type LinkedFile =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** The first records of a file, for format detection by content. */
export interface DetectionSample {
  readonly fileName: string;
  readonly container: ContainerKind;
  /** Up to 5 parsed records (for 'json': the document's records as the mapper's `jsonRecords` would select them, see {@link FormatMapper.jsonRecords}; detection also passes the root). */
  readonly records: readonly unknown[];
  /** For 'json' and 'zip': the root document / the parsed header entry, when small enough to parse (≤ 1 MiB), else undefined. */
  readonly root?: unknown;
}

/** Maps one format's records to canonical episodes. Pure: no I/O. */
export interface FormatMapper {
  /** Stored in `source.format` and accepted by `--format`, e.g. `verl`, `who-and-when`. */
  readonly format: string;
  /** Shown to users next to each source, e.g. `verl rollout dump`. */
  readonly label: string;
  /** The containers this format comes in. */
  readonly containers: readonly ContainerKind[];
  /**
   * For the 'json' container, which values are records: `root` (the document is one record, e.g. a
   * Who&When file), `array` (elements of a top-level array, e.g. tau-bench), or a property name of
   * the root object whose array holds them (e.g. `samples` for an Inspect .json log).
   */
  readonly jsonRecords?: 'root' | 'array' | { readonly property: string };
  /** For the 'zip' container: which entries are records (e.g. `/^samples\/.*\.json$/`). */
  readonly zipRecords?: RegExp;
  /** For the 'zip' container: the entry parsed as {@link RecordContext.header} and detection `root`; default `header.json`. */
  readonly zipHeader?: string;
  /**
   * True when episodes need several records (OpenTelemetry spans grouped by trace): the indexer
   * passes every record of the file at once to {@link toEpisodes} (as an array, with index 0, line
   * 1 and the first record's header), re-reads the whole file to recover one episode, and reads the
   * file whole again when it changes (no appends).
   */
  readonly wholeFile?: boolean;
  /**
   * The files re-dump a rolling buffer (TRL's `_logs` deques): the leading rows of a file that are
   * the trailing rows of the previous file in its folder (path order), row for row with identical
   * content (step, group, sample and split may differ), are skipped and counted as repeats, not
   * issues. Equal rows anywhere else are distinct episodes, so ids must come from the position.
   */
  readonly dedupeRepeats?: boolean;
  /**
   * For the 'json' container: other files an episode is made of (Harbor ATIF continuation and
   * sub-agent trajectories), as paths relative to the file of `record` (`context.uri`). The indexer
   * reads them, then asks again of each file it read (so chains and nested references are
   * followed, each file once, at most 64 files), and passes them all in {@link RecordContext.linked}
   * when indexing and when reading the episode back. A path outside the indexed folder is not read.
   */
  readonly linkedFiles?: (record: unknown, context: RecordContext) => readonly string[];
  /**
   * Names (the file name, not the path) of the files this format's producer writes next to its
   * traces that hold no episodes: configs, metrics, ledgers (C3's `run_config.json`,
   * `budget_ledger.jsonl`, `*.metrics.jsonl`). The folder scan lists them as other files and never
   * reads them, so they are neither imported nor reported as unrecognised.
   */
  readonly sideFiles?: readonly RegExp[];
  /**
   * Why this importer does not read a file it was tried on (a mapping file whose paths find
   * nothing): shown when no importer recognises the file. Undefined when it has nothing to say.
   */
  readonly explainMismatch?: (sample: DetectionSample, uri: string) => string | undefined;
  /** How sure (0..1) the content is this format. ≥ 0.5 is a match; the highest score wins. */
  detect(sample: DetectionSample): number;
  /**
   * Maps one record (or, with `wholeFile`, the array of all records) to episodes. A record that is
   * not this format's, or is broken, is an error naming the field (`missing "responses"`); the
   * indexer reports it at the record's file and line and goes on.
   */
  toEpisodes(record: unknown, context: RecordContext): Result<Episode[]>;
}
