import { err, ok, type Result } from '../../core/result';
import { canonicalMapper } from './canonicalMapper';
import { containerOf, sampleRecords, selectionOf, wideSampleSize, type Sample } from './containers/container';
import { messageOf } from './containers/containerItem';
import type { ContainerKind, DetectionSample, FormatMapper } from './types';

/** The lowest detection score that counts as a match. */
export const minimumScore = 0.5;

/** The chosen importer of a file and the container it is read with. */
export interface DetectedFormat {
  readonly mapper: FormatMapper;
  readonly container: ContainerKind;
}

/**
 * Picks the importer of a trace file by content: the container comes from the file's extension;
 * every importer reading that container scores a sample of the file's first records (read once per
 * record selection), and the highest score of at least 0.5 wins, the earlier importer on a tie
 * (the canonical format comes first). An importer that throws scores 0. When no importer matches
 * the first records together (one misspelt field in the first lines), a wider sample is scored
 * record by record and the importer that recognises the most records wins (see
 * {@link voteByRecord}): the records it cannot map are then reported at their lines, the rest kept.
 * Fails with a reason that names the importers tried when none matches or the file cannot be read.
 */
export async function detectFormat(
  path: string,
  fileName: string,
  importers: readonly FormatMapper[],
): Promise<Result<DetectedFormat>> {
  const container = containerOf(fileName);
  if (container === undefined) return err('not a trace file');
  const candidates = importers.filter((m) => m.containers.includes(container));
  if (candidates.length === 0) return err(`no importer reads ${extensionOf(fileName)} files`);
  const read = { path, fileName, container };
  const first = await scoreSamples(read, candidates);
  if (!first.ok) return first;
  const best = bestOf(candidates, first.value);
  if (best) return ok({ mapper: best, container });
  const voted = await voteByRecord(read, candidates);
  if (!voted.ok) return voted;
  if (voted.value) return ok({ mapper: voted.value, container });
  const why = await mismatchReasons(read, candidates);
  return err(
    `no importer recognises this file (tried: ${candidates.map((m) => m.format).join(', ')})${why.length > 0 ? `; ${why.join('; ')}` : ''}`,
  );
}

/** What the importers that can explain themselves (mapping files) say about the file's first records. */
async function mismatchReasons(file: FileToDetect, candidates: readonly FormatMapper[]): Promise<string[]> {
  const reasons: string[] = [];
  const samples = new Map<string, Sample>();
  for (const mapper of candidates) {
    if (!mapper.explainMismatch) continue;
    const sample = await cachedSample(file, mapper, samples);
    if (!sample.ok) continue;
    const reason = mapper.explainMismatch(sampleOf(file, sample.value.records, sample.value.root), file.fileName);
    if (reason !== undefined) reasons.push(reason);
  }
  return reasons;
}

interface FileToDetect {
  readonly path: string;
  readonly fileName: string;
  readonly container: ContainerKind;
}

/**
 * Importers' detect() is pure; the canonical one normalises records in place (decodeEpisode), so
 * it scores last and nothing has to be copied.
 */
function scoringOrder(candidates: readonly FormatMapper[]): FormatMapper[] {
  return [...candidates.filter((m) => m !== canonicalMapper), ...candidates.filter((m) => m === canonicalMapper)];
}

/** Each candidate's score of the file's first records; the records are read once per selection. */
async function scoreSamples(
  file: FileToDetect,
  candidates: readonly FormatMapper[],
): Promise<Result<Map<FormatMapper, number>>> {
  const samples = new Map<string, Sample>();
  const scores = new Map<FormatMapper, number>();
  for (const mapper of scoringOrder(candidates)) {
    const sample = await cachedSample(file, mapper, samples);
    if (!sample.ok) return sample;
    scores.set(mapper, scoreOf(mapper, sampleOf(file, sample.value.records, sample.value.root)));
  }
  return ok(scores);
}

/** The highest score of at least {@link minimumScore}, the earlier importer on a tie. */
function bestOf(
  candidates: readonly FormatMapper[],
  scores: ReadonlyMap<FormatMapper, number>,
): FormatMapper | undefined {
  let best: FormatMapper | undefined;
  for (const mapper of candidates) {
    const score = scores.get(mapper) ?? 0;
    if (score >= minimumScore && (best === undefined || score > (scores.get(best) ?? 0))) best = mapper;
  }
  return best;
}

/**
 * Detection by the records that parse: up to {@link wideSampleSize} records are scored one at a
 * time; the importer recognising the most of them wins (the earlier on a tie), provided it
 * recognises at least two, or the only one of a one-record sample. Undefined when none does.
 */
async function voteByRecord(
  file: FileToDetect,
  candidates: readonly FormatMapper[],
): Promise<Result<FormatMapper | undefined>> {
  const samples = new Map<string, Sample>();
  const votes = new Map<FormatMapper, number>();
  let sampled = 0;
  for (const mapper of scoringOrder(candidates)) {
    const sample = await cachedSample(file, mapper, samples, wideSampleSize);
    if (!sample.ok) return sample;
    const { records, root } = sample.value;
    sampled = Math.max(sampled, records.length);
    votes.set(
      mapper,
      records.filter((record) => scoreOf(mapper, sampleOf(file, [record], root)) >= minimumScore).length,
    );
  }
  const needed = Math.min(2, sampled);
  let best: FormatMapper | undefined;
  for (const mapper of candidates) {
    const count = votes.get(mapper) ?? 0;
    if (count > 0 && count >= needed && (best === undefined || count > (votes.get(best) ?? 0))) best = mapper;
  }
  return ok(best);
}

async function cachedSample(
  file: FileToDetect,
  mapper: FormatMapper,
  samples: Map<string, Sample>,
  size?: number,
): Promise<Result<Sample>> {
  const selection = selectionOf(mapper);
  // JSONL lines and Parquet rows are the records whatever the selection: one sample serves all.
  const key =
    file.container === 'jsonl' || file.container === 'parquet'
      ? file.container
      : JSON.stringify({ json: selection.json, zip: selection.zipRecords?.source, header: selection.zipHeader });
  const cached = samples.get(key);
  if (cached) return ok(cached);
  try {
    const sample = await sampleRecords(file.container, file.path, selection, size);
    samples.set(key, sample);
    return ok(sample);
  } catch (error) {
    const message = messageOf(error);
    return err(message.startsWith('cannot read') ? message : `cannot read the file: ${message}`);
  }
}

function sampleOf(file: FileToDetect, records: readonly unknown[], root: unknown): DetectionSample {
  return { fileName: file.fileName, container: file.container, records, ...(root !== undefined ? { root } : {}) };
}

/**
 * The importer forced by `--format` or run.json's `traceFormat`, when it reads this file's
 * container; else why not.
 */
export function forcedFormat(fileName: string, mapper: FormatMapper): Result<DetectedFormat> {
  const container = containerOf(fileName);
  if (container === undefined) return err('not a trace file');
  if (!mapper.containers.includes(container)) {
    return err(
      `the forced format "${mapper.format}" does not read ${extensionOf(fileName)} files (it reads ${mapper.containers.join(', ')})`,
    );
  }
  return ok({ mapper, container });
}

function scoreOf(mapper: FormatMapper, sample: DetectionSample): number {
  try {
    const score = mapper.detect(sample);
    return Number.isFinite(score) ? score : 0;
  } catch {
    return 0;
  }
}

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? fileName : fileName.slice(dot);
}
