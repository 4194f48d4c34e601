import type { RewardWeights } from '../core/runManifest';
import type { RunSplits } from '../core/split';
import type { AgentDecl } from '../core/episode';
import type { CompactEpisode, TraceIssue } from '../core/indexing';
import { TextPacker, type PackedTexts } from '../core/packedTexts';
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
 * in `mappers`, the registered formats by default), one record per line. With `request.search`,
 * `packer` collects each batch's search documents.
 */
export function parseLines(
  request: ParseRequest,
  isCancelled: () => boolean,
  emit: (batch: ParsedBatch) => void,
  details: RosterDetails = new RosterDetails(),
  mappers: readonly FormatMapper[] = formatMappers,
  packer: TextPacker = new TextPacker(),
): ReadPosition {
  let episodes: CompactEpisode[] = [];
  let issues: TraceIssue[] = [];
  const texts = request.search ? packer : undefined;
  let lines = 0;
  let bytes = 0;
  let position = request.start;
  const flush = (final: boolean): void => {
    emit({ episodes, issues, end: position, lines, bytes, final, ...(texts ? { texts: texts.take() } : {}) });
    episodes = [];
    issues = [];
    lines = 0;
    bytes = 0;
  };
  const mapper = request.format === canonicalFormat ? undefined : importerOf(request, mappers);
  if (request.format !== canonicalFormat && mapper === undefined) {
    issues.push({
      uri: request.uri,
      line: 0,
      offset: 0,
      reason: `no importer named "${request.format}" in this build; re-index the run`,
    });
    flush(true);
    return position;
  }
  position = readJsonlLines(request.path, request.start, (line) => {
    if (isCancelled()) return false;
    if (mapper) mapLine(mapper, line, request, details, { episodes, issues, texts });
    else {
      const outcome = decodeLine(line, request.uri, request.roster, details, texts);
      if (outcome.kind === 'episode') {
        episodes.push(outcome.record);
        for (const warning of outcome.warnings) issues.push(warning);
      } else if (outcome.kind === 'issue') issues.push(outcome.issue);
    }
    position = { offset: line.offset + line.length + 1, line: line.line };
    lines++;
    bytes += line.length + 1;
    if (episodes.length >= request.batchSize || bytes >= maxBatchBytes) flush(false);
    return true;
  });
  flush(!isCancelled());
  return position;
}

function importerOf(request: ParseRequest, mappers: readonly FormatMapper[]): FormatMapper | undefined {
  if (request.mappingSpec === undefined) return findImporter(request.format, importerList(mappers));
  const mapped = mapperFromSpec(request.mappingSpec);
  return mapped.ok ? mapped.value : undefined;
}

/** What a batch collects, appended to by each line. */
interface BatchRows {
  readonly episodes: CompactEpisode[];
  readonly issues: TraceIssue[];
  readonly texts: TextPacker | undefined;
}

/** Maps one line of a non-canonical JSONL file: any number of episodes and issues. */
function mapLine(
  mapper: FormatMapper,
  line: JsonlLine,
  request: ParseRequest,
  details: RosterDetails,
  { episodes, issues, texts }: BatchRows,
): void {
  if (line.text.trim() === '') return;
  const locator = { line: line.line, offset: line.offset, length: line.length };
  const excerpt = line.text.slice(0, excerptLength);
  let record: unknown;
  try {
    record = JSON.parse(line.text);
  } catch (error) {
    issues.push({
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
  const imported = importRecord(mapper, record, context, { uri: request.uri, locator, excerpt }, details, texts);
  for (const e of imported.episodes) episodes.push(e);
  for (const i of imported.issues) issues.push(i);
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
