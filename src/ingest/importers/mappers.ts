import type { FormatMapper } from './types';

/**
 * Every format the indexer can detect and import, most specific first (detection ties go to the
 * earlier one). The canonical Credit Lens JSONL format is always available, outside this list.
 */
export const formatMappers: readonly FormatMapper[] = [];
