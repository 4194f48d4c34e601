import type { RewardWeights } from '../core/runManifest';
import type { RunSplits } from '../core/split';
import type { AgentDecl } from '../core/episode';
import type { CompactEpisode, TraceIssue } from '../core/indexing';
import { packedText, TextPacker, type PackedTexts } from '../core/packedTexts';
import { checkAgentReferences } from './canonical/agentReferences';
import { decodeEpisode } from './canonical/decodeEpisode';
import { compactEpisode, RosterDetails } from './compactEpisode';
import { canonicalFormat } from './importers/canonicalMapper';
import { importRecord } from './importers/mapRecord';
import { mapperFromSpec } from './importers/formats/mapping/mapping';
import { formatMappers } from './importers/mappers';
import { findImporter, importerList } from './importers/registry';
import type { FormatMapper } from './importers/types';
import { readJsonlLines, type JsonlLine, type ReadPosition } from './jsonlReader';

export { canonicalFormat };
export const excerptLength = 120;
/** A batch is also cut once its lines reach this many bytes, to bound memory. */
const maxBatchBytes = 16 << 20;

/** Decoded lines of one file, ready for the writer; `end` is where the next read starts. */
export interface ParsedBatch {
  readonly episodes: CompactEpisode[];
  readonly issues: TraceIssue[];
  readonly end: ReadPosition;
  readonly lines: number;
  readonly bytes: number;
  /** True on the batch that ends a read which reached the end of the file (not cancelled). */
  readonly final: boolean;
  /**
   * With {@link ParseRequest.search}: the search document of every episode of `episodes`, in order
   * (core/indexing.ts searchDocument), for the full-text index. Crosses threads beside the batch's JSON.
   */
  readonly texts?: PackedTexts;
  /** Set instead of `texts` when the parse worker sent them to a side full-text index (EpisodeBatch.textSeq). */
  readonly textSeq?: number;
  /**
   * With {@link ParseState.episodeJson}: each episode's JSON as UTF-8 (buffers of their own, to
   * transfer), and `episodes` is empty; {@link batchOfJson} reads them back.
   */
  readonly episodeJson?: PackedTexts;
}

/** What one pass's calls of {@link parseLines} share besides the request. */
export interface ParseState {
  /** The roster details of the pass (one per pass). */
  readonly details?: RosterDetails;
  /** The formats to import (default: the registered ones). */
  readonly mappers?: readonly FormatMapper[];
  /** Collects each batch's search documents when the request asks for them (default: a packer of its own). */
  readonly texts?: TextPacker;
  /**
   * When given, each episode is serialised here (as UTF-8) as soon as it is decoded, instead of
   * kept as an object until its batch is emitted ({@link ParsedBatch.episodeJson}). Why: a thread
   * that posts its batches as JSON would otherwise hold a thousand episodes' object graphs through
   * every young-generation collection of the batch, which copies them each time (a third of the
   * parse worker's time before this), where bytes outside the JavaScript heap are never copied.
   */
  readonly episodeJson?: TextPacker;
}

/** What to parse: one file from a position, with the run's default roster. */
export interface ParseRequest {
  readonly path: string;
  readonly uri: string;
  /** The importer of the file's lines (source.format): the canonical format, or a mapper's. */
  readonly format: string;
  /** When the importer is a mapping file's: the parsed file, to build the importer in any thread. */
  readonly mappingSpec?: unknown;
  readonly start: ReadPosition;
  readonly roster: readonly AgentDecl[];
  /** run.json `splits`, for the record context. */
  readonly splits?: RunSplits;
  /** run.json `rewardWeights`, for the record context. */
  readonly rewardWeights?: RewardWeights;
  /** run.json `mechanism`: not used to parse; for a worker that computes credit as it parses (engine/traceCredit). */
  readonly mechanism?: string;
  readonly batchSize: number;
  /** Collect the message text of each batch ({@link ParsedBatch.texts}), for the full-text index. */
  readonly search?: boolean;
}

/**
 * Reads a JSONL file from `start`, decodes and compacts every complete line, and hands batches of
 * at most `batchSize` episodes to `emit` (the last batch may be empty; it carries the end
 * position). Runs in the index worker or in a parse worker; both produce identical batches.
 * Canonical lines go through the fast canonical decoder; other formats through their mapper (found
 * in `mappers`, the registered formats by default), one record per line. `state` is what the
 * pass's calls share ({@link ParseState}).
 */
export function parseLines(
  request: ParseRequest,
  isCancelled: () => boolean,
  emit: (batch: ParsedBatch) => void,
  state: ParseState = {},
): ReadPosition {
  const { details = new RosterDetails(), mappers = formatMappers } = state;
  const texts = request.search ? (state.texts ?? new TextPacker()) : undefined;
  const batch = new BatchCollector(texts, state.episodeJson);
  let position = request.start;
  const mapper = request.format === canonicalFormat ? undefined : importerOf(request, mappers);
  if (request.format !== canonicalFormat && mapper === undefined) {
    batch.issues.push({
      uri: request.uri,
      line: 0,
      offset: 0,
      reason: `no importer named "${request.format}" in this build; re-index the run`,
    });
    emit(batch.take(position, true));
    return position;
  }
  position = readJsonlLines(request.path, request.start, (line) => {
    if (isCancelled()) return false;
    if (mapper) mapLine(mapper, line, request, details, batch);
    else {
      const outcome = decodeLine(line, request.uri, request.roster, details, texts);
      if (outcome.kind === 'episode') {
        batch.keep(outcome.record);
        for (const warning of outcome.warnings) batch.issues.push(warning);
      } else if (outcome.kind === 'issue') batch.issues.push(outcome.issue);
    }
    position = { offset: line.offset + line.length + 1, line: line.line };
    if (batch.countLine(line.length + 1, request.batchSize)) emit(batch.take(position, false));
    return true;
  });
  emit(batch.take(position, !isCancelled()));
  return position;
}

/** What a batch collects, line by line, until {@link BatchCollector.take} hands it out. */
class BatchCollector {
  private episodes: CompactEpisode[] = [];
  issues: TraceIssue[] = [];
  private lines = 0;
  private bytes = 0;
  /** Episodes kept, as objects or as JSON. */
  private count = 0;

  constructor(
    readonly texts: TextPacker | undefined,
    private readonly episodeJson: TextPacker | undefined,
  ) {}

  keep(record: CompactEpisode): void {
    if (this.episodeJson) this.episodeJson.push(JSON.stringify(record));
    else this.episodes.push(record);
    this.count++;
  }

  /** Counts a line read (its bytes with the newline); true when the batch is full and should be taken. */
  countLine(bytes: number, batchSize: number): boolean {
    this.lines++;
    this.bytes += bytes;
    return this.count >= batchSize || this.bytes >= maxBatchBytes;
  }

  take(end: ReadPosition, final: boolean): ParsedBatch {
    const { episodes, issues, lines, bytes, texts, episodeJson } = this;
    this.episodes = [];
    this.issues = [];
    this.lines = this.bytes = this.count = 0;
    return {
      episodes,
      issues,
      end,
      lines,
      bytes,
      final,
      ...(texts ? { texts: texts.take() } : {}),
      ...(episodeJson ? { episodeJson: episodeJson.take() } : {}),
    };
  }
}

const decoder = new TextDecoder();

/**
 * A batch from what crossed threads: its JSON (without texts or episode JSON), and the episodes'
 * JSON bytes when the parser serialised them as it went ({@link ParseState.episodeJson}).
 */
export function batchOfJson(json: string, episodeJson: PackedTexts | undefined): ParsedBatch {
  const batch = JSON.parse(json) as ParsedBatch;
  if (episodeJson === undefined) return batch;
  // One episode at a time: decoding a few kilobytes is about 20 times faster per byte than decoding
  // a whole batch into one string too large for V8's regular pages (BENCHMARKS.md, issue 15, fifteenth part).
  const episodes: CompactEpisode[] = [];
  for (let i = 0; i < episodeJson.ends.length; i++) {
    episodes.push(JSON.parse(decoder.decode(packedText(episodeJson, i))) as CompactEpisode);
  }
  return { ...batch, episodes };
}

function importerOf(request: ParseRequest, mappers: readonly FormatMapper[]): FormatMapper | undefined {
  if (request.mappingSpec === undefined) return findImporter(request.format, importerList(mappers));
  const mapped = mapperFromSpec(request.mappingSpec);
  return mapped.ok ? mapped.value : undefined;
}

/** Maps one line of a non-canonical JSONL file: any number of episodes and issues. */
function mapLine(
  mapper: FormatMapper,
  line: JsonlLine,
  request: ParseRequest,
  details: RosterDetails,
  batch: BatchCollector,
): void {
  if (line.text.trim() === '') return;
  const locator = { line: line.line, offset: line.offset, length: line.length };
  const excerpt = line.text.slice(0, excerptLength);
  let record: unknown;
  try {
    record = JSON.parse(line.text);
  } catch (error) {
    batch.issues.push({
      uri: request.uri,
      line: line.line,
      offset: line.offset,
      reason: `invalid JSON: ${(error as Error).message}`,
      excerpt,
    });
    return;
  }
  const fileName = request.uri.slice(request.uri.lastIndexOf('/') + 1);
  const context = {
    uri: request.uri,
    fileName,
    index: line.line - 1,
    line: line.line,
    roster: request.roster,
    ...(request.splits ? { splits: request.splits } : {}),
    ...(request.rewardWeights ? { rewardWeights: request.rewardWeights } : {}),
  };
  const place = { uri: request.uri, locator, excerpt };
  const imported = importRecord(mapper, record, context, place, details, batch.texts);
  for (const e of imported.episodes) batch.keep(e);
  for (const i of imported.issues) batch.issues.push(i);
}

type LineOutcome =
  /** `warnings`: references to agents outside the roster, left out of `record` (canonical/agentReferences.ts). */
  | { readonly kind: 'episode'; readonly record: CompactEpisode; readonly warnings: readonly TraceIssue[] }
  | { readonly kind: 'issue'; readonly issue: TraceIssue }
  | { readonly kind: 'blank' };

/**
 * Parses and decodes one line; a bad line becomes an issue naming the file, line and reason. A valid
 * line that names agents outside its roster is indexed without those references, with a warning
 * issue at the same line for each. `texts` collects the episode's message content (compactEpisode).
 */
export function decodeLine(
  line: JsonlLine,
  uri: string,
  roster: readonly AgentDecl[],
  details?: RosterDetails,
  texts?: TextPacker,
): LineOutcome {
  // `{` first is the common case; only other lines pay for the blank check.
  if (line.text.charCodeAt(0) !== 0x7b && line.text.trim() === '') return { kind: 'blank' };
  const at = (reason: string): TraceIssue => ({
    uri,
    line: line.line,
    offset: line.offset,
    reason,
    excerpt: line.text.slice(0, excerptLength),
  });
  const issue = (reason: string): LineOutcome => ({ kind: 'issue', issue: at(reason) });
  let json: unknown;
  try {
    json = JSON.parse(line.text);
  } catch (error) {
    return issue(`invalid JSON: ${(error as Error).message}`);
  }
  const decoded = decodeEpisode(json, roster);
  if (!decoded.ok) return issue(`invalid episode: ${decoded.error}`);
  const { episode, warnings } = checkAgentReferences(decoded.value);
  const location = { line: line.line, offset: line.offset, length: line.length };
  const record = compactEpisode(episode, location, details, texts);
  return { kind: 'episode', record, warnings: warnings.map(at) };
}
