import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { searchDocument, type IndexSink, type PendingSearchEpisode, type SearchRow } from '../core/indexing';
import type { IndexTally } from '../core/indexProgress';
import { isObject } from './canonical/fields';
import { canonicalFormat } from './importers/canonicalMapper';
import type { FormatMapper } from './importers/types';
import { readEpisode } from './readEpisode';

interface SearchContext {
  readonly tally: IndexTally;
  readonly isCancelled: () => boolean;
  readonly report: () => void;
  /** The formats other files were imported with (readEpisode maps their records again). */
  readonly mappers?: readonly FormatMapper[];
}

const episodesPerBatch = 500;

/**
 * Feeds message text of indexed episodes that are not searchable yet into the full-text index:
 * those of files imported whole, and those indexed with search off (JSONL lines hand their text to
 * the writer with their batch instead, see ParsedBatch.texts). The text is read back from
 * the trace files (the index keeps no copy): canonical lines by byte offset, other records through
 * their importer; in batches that each mark their episodes as searchable in the same transaction,
 * so the stage can stop and resume at any point.
 */
export async function buildSearchIndex(root: string, sink: IndexSink, ctx: SearchContext): Promise<void> {
  ctx.tally.phase = 'search';
  const files = new FileCache(root);
  try {
    for (;;) {
      if (ctx.isCancelled()) return;
      const pending = sink.pendingSearch(episodesPerBatch);
      if (pending.length === 0) return;
      const rows: SearchRow[] = [];
      for (const episode of pending) {
        const contents =
          episode.format === canonicalFormat
            ? messageContents(files, episode)
            : await importedContents(root, episode, ctx.mappers);
        if (contents.length > 0) rows.push({ episodeId: episode.episodeId, content: searchDocument(contents) });
      }
      sink.writeSearch(
        pending.map((p) => p.episodeId),
        rows,
      );
      ctx.tally.searchEpisodes += pending.length;
      ctx.report();
    }
  } finally {
    files.close();
  }
}

/**
 * The message contents of one canonical episode. A line that no longer parses (the file changed
 * after it was indexed) yields none; the next indexing pass re-reads that file anyway.
 */
function messageContents(files: FileCache, episode: PendingSearchEpisode): string[] {
  const text = files.read(episode.uri, episode.offset, episode.length);
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const messages = isObject(json) && Array.isArray(json['messages']) ? json['messages'] : [];
  const contents: string[] = [];
  for (let seq = 0; seq < Math.min(messages.length, episode.nMessages); seq++) {
    const message: unknown = messages[seq];
    if (isObject(message) && typeof message['content'] === 'string') contents.push(message['content']);
  }
  return contents;
}

/** The message contents of an imported episode; none when its record cannot be read back. */
async function importedContents(
  root: string,
  episode: PendingSearchEpisode,
  mappers: readonly FormatMapper[] | undefined,
): Promise<string[]> {
  const read = await readEpisode(root, episode, mappers);
  if (!read.ok) return [];
  return read.value.messages.slice(0, episode.nMessages).map((m) => m.content);
}

/** Keeps one descriptor per file open for the duration of a stage. */
class FileCache {
  private readonly fds = new Map<string, number | undefined>();

  constructor(private readonly root: string) {}

  read(uri: string, offset: number, length: number): string | undefined {
    const fd = this.open(uri);
    if (fd === undefined) return undefined;
    const buffer = Buffer.allocUnsafe(length);
    const n = readSync(fd, buffer, 0, length, offset);
    return n === length ? buffer.toString('utf8') : undefined;
  }

  close(): void {
    for (const fd of this.fds.values()) if (fd !== undefined) closeSync(fd);
    this.fds.clear();
  }

  private open(uri: string): number | undefined {
    if (!this.fds.has(uri)) {
      let fd: number | undefined;
      try {
        fd = openSync(join(this.root, uri), 'r');
      } catch {
        fd = undefined;
      }
      this.fds.set(uri, fd);
    }
    return this.fds.get(uri);
  }
}
