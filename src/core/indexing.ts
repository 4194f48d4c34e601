import type { AgentDecl, Episode } from './episode';
import type { PackedTexts } from './packedTexts';
import type { RunManifest } from './runManifest';

/** What the index remembers about a trace file after reading it. */
export interface StoredFileState {
  readonly sourceId: number;
  readonly runId: number;
  /** The importer that read the file (source.format), e.g. `credit_lens_jsonl`, `verl`; `unknown` when none recognised it. */
  readonly format: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Bytes consumed; always just after a complete line. */
  readonly indexedOffset: number;
  /** Complete lines consumed. */
  readonly lines: number;
  readonly headHash: string;
}

/** The new state of a file after a batch of its lines was read. */
export interface FileProgressState {
  readonly size: number;
  readonly mtimeMs: number;
  readonly indexedOffset: number;
  readonly lines: number;
  readonly headHash: string;
}

/**
 * A problem in a trace file, located precisely enough to jump to it: a line or record that was
 * skipped, or a warning about one that was indexed without part of it (a reference to an agent
 * outside the episode's roster); `reason` says which.
 */
export interface TraceIssue {
  /** Path relative to the indexed folder, with `/` separators. */
  readonly uri: string;
  /** 1-based line; 0 when the issue concerns the whole file. */
  readonly line: number;
  readonly offset: number;
  readonly reason: string;
  readonly excerpt?: string;
}

/**
 * An episode reduced to what the index stores: no message text (read back from the file by byte
 * offset), per-message data packed as JSON, speakers resolved to roster ordinals. Built by the
 * parser (possibly in another thread) so the writer only binds values.
 */
export interface CompactEpisode {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly id: string;
  readonly step: number | null;
  readonly group: string | null;
  readonly sample: number | null;
  readonly task: string | null;
  readonly split: string | null;
  readonly groundTruth: string | null;
  readonly reward: number | null;
  readonly finalAnswer: string | null;
  readonly finalAgent: string | null;
  /** Declared agents first (the first `declaredCount`), then undeclared speakers by first message. */
  readonly roster: readonly AgentDecl[];
  readonly declaredCount: number;
  /** Per roster ordinal: [messages, tokens or null, chars]. */
  readonly activity: readonly (readonly [number, number | null, number])[];
  readonly nMessages: number;
  readonly nTokens: number | null;
  /** `[[ordinal, turn, role, channel, nChars, nTokens, hasTokens], …]` in message order. */
  readonly messagesJson: string;
  readonly metadataJson: string | null;
  /** Rarely present, small: passed through from the decoded episode. */
  readonly extras: Pick<
    Episode,
    'agentRewards' | 'advantages' | 'routing' | 'counterfactuals' | 'coalitions' | 'labels'
  > & { readonly connections?: readonly MessageConnection[] };
  /**
   * Set by importers that drop repeated rows (FormatMapper.dedupeRepeats): a hash of what the
   * episode says (not where or when it was logged). An episode whose id the run already has with the
   * same hash is skipped without an issue.
   */
  readonly contentHash?: string;
}

/**
 * An episode's document in the full-text index: its messages' contents joined by newlines, so that
 * no term is made of the end of one message and the start of the next (migration 0019).
 */
export function searchDocument(contents: readonly string[]): string {
  return contents.join(searchDocumentSeparator);
}

/** What separates two messages' contents in a search document ({@link searchDocument}). */
export const searchDocumentSeparator = '\n';

/** Lines of one file read in one pass, committed atomically with the file's new state. */
export interface EpisodeBatch {
  readonly uri: string;
  readonly format: string;
  readonly sourceId: number;
  readonly runId: number;
  readonly episodes: readonly CompactEpisode[];
  readonly issues: readonly TraceIssue[];
  readonly state: FileProgressState;
  /**
   * The search document of every episode of `episodes`, in order ({@link searchDocument}). When given,
   * the episodes enter the full-text index in the same transaction and are searchable at once;
   * without it they wait for the search stage (IndexSink.pendingSearch).
   */
  readonly texts?: PackedTexts;
  /**
   * Set instead of `texts` when the parse worker sent the batch's texts to a side full-text index
   * (a cold pass): the episodes are written unsearchable, and the sink reports where they landed
   * under this number, so that the side index can add their texts (store/sideSearchIndex.ts).
   */
  readonly textSeq?: number;
}

/** A run folder as found on disk. */
export interface RunRecord {
  /** Folder relative to the indexed folder, `''` for the folder itself. */
  readonly root: string;
  readonly name: string;
  readonly manifest?: RunManifest;
  /** The producer whose folder layout made the folder a run (no run.json), e.g. `verl`. */
  readonly layout?: string;
  /** Where the layout is ambiguous: what was assumed, and the run.json that would say otherwise. */
  readonly layoutNote?: string;
}

/** Episodes whose message text still has to enter the full-text index. */
export interface PendingSearchEpisode {
  readonly episodeId: number;
  readonly externalId: string;
  /** The source's format: canonical lines are read directly, other records through their importer. */
  readonly format: string;
  readonly uri: string;
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly nMessages: number;
}

/** One episode's search document ({@link searchDocument}) for the full-text index. */
export interface SearchRow {
  readonly episodeId: number;
  readonly content: string;
}

/**
 * Where the indexer writes. Implemented by the store; defined here so that `ingest` depends on an
 * interface, not on SQLite. Every method is synchronous and each write is one transaction.
 */
export interface IndexSink {
  upsertRun(run: RunRecord): number;
  fileState(uri: string): StoredFileState | undefined;
  /** Creates the source or empties it (episodes, errors, search rows) for a full re-read. */
  resetSource(uri: string, runId: number, format: string, state: FileProgressState): number;
  /**
   * `duplicates`: episodes skipped because the run has their id (as issues); `repeats`: episodes
   * skipped silently because the run has their id with the same content hash (see CompactEpisode).
   */
  writeBatch(batch: EpisodeBatch): { duplicates: readonly TraceIssue[]; repeats?: number };
  /** Records issues that belong to no batch (an unreadable file, a bad manifest). */
  writeIssues(sourceId: number, issues: readonly TraceIssue[]): void;
  /** Forgets sources whose files are gone; returns how many were removed. */
  removeSourcesExcept(uris: ReadonlySet<string>): number;
  pendingSearch(limit: number): PendingSearchEpisode[];
  writeSearch(episodeIds: readonly number[], rows: readonly SearchRow[]): void;
}

/** One logged connection between two messages (docs/trace-format.md §2.2), with both authors. */
export interface MessageConnection {
  /** Index of the upstream message and its author. */
  readonly fromSeq: number;
  readonly fromAgent: string;
  /** Index of the message that logged the connection and its author. */
  readonly toSeq: number;
  readonly toAgent: string;
  readonly weight: number;
}
