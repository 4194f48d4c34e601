import { ok } from '../../core/result';
import { decodeEpisode } from '../canonical/decodeEpisode';
import { isObject } from '../canonical/fields';
import type { DetectionSample, FormatMapper } from './types';

/** The canonical format's identifier in `source.format` and `--format`. */
export const canonicalFormat = 'credit_lens_jsonl';

/**
 * The canonical Credit Lens JSONL format as a mapper, so detection can weigh it against the
 * others. The indexer reads canonical files through its own fast line decoder (parseLines.ts);
 * this mapper is used for detection and when a format is forced.
 */
export const canonicalMapper: FormatMapper = {
  format: canonicalFormat,
  label: 'Credit Lens JSONL',
  containers: ['jsonl'],
  detect: canonicalScore,
  toEpisodes: (record, context) => {
    const decoded = decodeEpisode(record, context.roster);
    return decoded.ok ? ok([decoded.value]) : decoded;
  },
};

/**
 * Mean over the sampled records of 1 (a valid episode), 0.6 (an object with a `messages` array: a
 * canonical episode with a mistake, reported line by line) or 0. A file with no complete record yet
 * scores 0.5: a trainer's new, empty file is canonical until its content says otherwise (the
 * format is detected again while nothing has been read from it).
 */
function canonicalScore(sample: DetectionSample): number {
  if (sample.records.length === 0) return 0.5;
  let sum = 0;
  for (const record of sample.records) {
    if (!isObject(record)) continue;
    if (!Array.isArray(record['messages'])) continue;
    // decodeEpisode normalises the record in place: detectFormat scores this importer last.
    sum += decodeEpisode(record).ok ? 1 : 0.6;
  }
  return sum / sample.records.length;
}
