import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Episode } from '../core/episode';
import { err, type Result } from '../core/result';
import { decodeEpisode } from './canonical/decodeEpisode';

/** Where an indexed episode's line is. */
export interface EpisodeLocation {
  readonly uri: string;
  readonly offset: number;
  readonly length: number;
  readonly line: number;
}

/**
 * Reads one episode back from its trace file by byte offset (the index keeps no message text) and
 * decodes it. Fails with `file:line: reason` when the file is gone or changed since indexing.
 */
export function readEpisode(root: string, at: EpisodeLocation): Result<Episode> {
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
  const decoded = decodeEpisode(json);
  return decoded.ok ? decoded : err(`${where}: ${decoded.error}`);
}
