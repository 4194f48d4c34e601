import { formatMappers } from './mappers';
import type { FormatMapper } from './types';

/**
 * True when a format of `mappers` names `fileName` (the last path segment) as one of its
 * producer's side files ({@link FormatMapper.sideFiles}): a file that holds no traces.
 */
export function isSideFileName(fileName: string, mappers: readonly FormatMapper[] = formatMappers): boolean {
  return mappers.some((m) => m.sideFiles?.some((pattern) => pattern.test(fileName)) ?? false);
}
