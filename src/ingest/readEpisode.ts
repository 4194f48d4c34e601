import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentDecl, Episode } from '../core/episode';
import { err, type Result } from '../core/result';
import { decodeEpisode } from './canonical/decodeEpisode';
import { canonicalFormat } from './importers/canonicalMapper';
import { formatMappers } from './importers/mappers';
import { readImportedEpisode } from './importers/readImportedEpisode';
import { importerList } from './importers/registry';
import type { FormatMapper } from './importers/types';

/** Where an indexed episode's record is. */
export interface EpisodeLocation {
  readonly uri: string;
  readonly offset: number;
  readonly length: number;
  readonly line: number;
  /** The file's importer (source.format); the canonical format when absent. */
  readonly format?: string;
  /** The episode's id (external_id): picks the episode among several of one record. */
  readonly externalId?: string;
  /**
   * The run's roster from run.json, for a canonical line that declares no `agents` (as indexing
   * used it): without it such a line comes back without system prompts, policies or defaults.
   */
  readonly defaultRoster?: readonly AgentDecl[];
}

/**
 * Reads one episode back from its trace file (the index keeps no message text). A canonical line
 * is read by byte range and decoded; a record of another format is read through its container and
 * mapped again by its importer (`mappers`: the registered formats by default). Fails with
 * `file:line: reason` when the file is gone or changed since indexing.
 */
export async function readEpisode(
  root: string,
  at: EpisodeLocation,
  mappers: readonly FormatMapper[] = formatMappers,
): Promise<Result<Episode>> {
  if (at.format === undefined || at.format === canonicalFormat) return readCanonicalEpisode(root, at);
  return readImportedEpisode(root, { ...at, format: at.format }, importerList(mappers));
}

/** Reads a canonical episode line by byte offset and decodes it. */
export function readCanonicalEpisode(root: string, at: EpisodeLocation): Result<Episode> {
  const where = `${at.uri}:${at.line}`;
  let text: string;
  try {
    const fd = openSync(join(root, at.uri), 'r');
    try {
      const buffer = Buffer.allocUnsafe(at.length);
      const read = readSync(fd, buffer, 0, at.length, at.offset);
      if (read !== at.length) return err(`${where}: the file is shorter than when it was indexed; re-index the run`);
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return err(`${where}: cannot read the trace file: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return err(`${where}: the line changed since it was indexed; re-index the run`);
  }
  const decoded = decodeEpisode(json, at.defaultRoster);
  return decoded.ok ? decoded : err(`${where}: ${decoded.error}`);
}
