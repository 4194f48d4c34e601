import { canonicalMapper } from './canonicalMapper';
import type { FormatMapper } from './types';

/**
 * Every importer the indexer tries, in detection order: the canonical format first (it wins ties on
 * .jsonl), then `mappers` (formatMappers, or a test's own list). A mapper whose name repeats an
 * earlier one is left out.
 */
export function importerList(mappers: readonly FormatMapper[]): readonly FormatMapper[] {
  const seen = new Set<string>();
  return [canonicalMapper, ...mappers].filter((m) => !seen.has(m.format) && seen.add(m.format));
}

/** The importer named `format` (as stored in source.format or given to --format). */
export function findImporter(format: string, importers: readonly FormatMapper[]): FormatMapper | undefined {
  return importers.find((m) => m.format === format);
}

/** `unknown format "x" (known: a, b, c)`. */
export function unknownFormatMessage(format: string, importers: readonly FormatMapper[]): string {
  return `unknown format "${format}" (known: ${importers.map((m) => m.format).join(', ')})`;
}
