import { err, ok, type Result } from '../../core/result';
import { canonicalMapper } from './canonicalMapper';
import { containerOf, sampleRecords, selectionOf, type Sample } from './containers/container';
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
 * (the canonical format comes first). An importer that throws scores 0. Fails with a reason that
 * names the importers tried when none matches or the file cannot be read.
 */
export async function detectFormat(path: string, fileName: string, importers: readonly FormatMapper[]): Promise<Result<DetectedFormat>> {
  const container = containerOf(fileName);
  if (container === undefined) return err('not a trace file');
  const candidates = importers.filter((m) => m.containers.includes(container));
  if (candidates.length === 0) return err(`no importer reads ${extensionOf(fileName)} files`);
  const samples = new Map<string, Sample>();
  const scores = new Map<FormatMapper, number>();
  // Importers' detect() is pure; the canonical one normalises records in place (decodeEpisode),
  // so it scores last and nothing has to be copied.
  for (const mapper of [...candidates.filter((m) => m !== canonicalMapper), ...candidates.filter((m) => m === canonicalMapper)]) {
    const selection = selectionOf(mapper);
    const key = JSON.stringify({ json: selection.json, zip: selection.zipRecords?.source, header: selection.zipHeader });
    let sample = samples.get(key);
    if (!sample) {
      try {
        sample = await sampleRecords(container, path, selection);
      } catch (error) {
        const message = messageOf(error);
        return err(message.startsWith('cannot read') ? message : `cannot read the file: ${message}`);
      }
      samples.set(key, sample);
    }
    scores.set(mapper, scoreOf(mapper, { fileName, container, records: sample.records, ...(sample.root !== undefined ? { root: sample.root } : {}) }));
  }
  let best: FormatMapper | undefined;
  for (const mapper of candidates) {
    const score = scores.get(mapper) ?? 0;
    if (score >= minimumScore && (best === undefined || score > (scores.get(best) ?? 0))) best = mapper;
  }
  if (best) return ok({ mapper: best, container });
  return err(`no importer recognises this file (tried: ${candidates.map((m) => m.format).join(', ')})`);
}

/**
 * The importer forced by `--format` or run.json's `traceFormat`, when it reads this file's
 * container; else why not.
 */
export function forcedFormat(fileName: string, mapper: FormatMapper): Result<DetectedFormat> {
  const container = containerOf(fileName);
  if (container === undefined) return err('not a trace file');
  if (!mapper.containers.includes(container)) {
    return err(`the forced format "${mapper.format}" does not read ${extensionOf(fileName)} files (it reads ${mapper.containers.join(', ')})`);
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
