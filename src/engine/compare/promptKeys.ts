import { createHash } from 'node:crypto';
import type { Episode } from '../../core/episode';
import { canonicalFormat } from '../../ingest/importers/canonicalMapper';
import { readCanonicalEpisode } from '../../ingest/readEpisode';
import type { CompareEpisode } from '../../store/compareRepository';

/** Prompt hashes of a side's episodes, and how many could not give one. */
export interface PromptKeys {
  readonly byEpisode: ReadonlyMap<number, string>;
  /** Episodes whose record is not canonical JSONL (their importer reads asynchronously): not read. */
  readonly otherFormat: number;
  /** Canonical records that could not be read back or hold no prompt. */
  readonly unreadable: number;
}

/**
 * The hash of each episode's task prompt (its `prompt`, else its first `user` message, trimmed),
 * read back from the trace under `root` (the index keeps no text). Only canonical JSONL lines are
 * read (by byte range, synchronously); episodes of other formats are counted in `otherFormat`.
 * Called only for episodes without a task id, as the pairing's fallback (credit-methods.md §5.5).
 */
export function promptKeys(root: string, episodes: readonly CompareEpisode[]): PromptKeys {
  const byEpisode = new Map<number, string>();
  let otherFormat = 0;
  let unreadable = 0;
  for (const e of episodes) {
    if (e.format !== canonicalFormat) {
      otherFormat++;
      continue;
    }
    const read = readCanonicalEpisode(root, e);
    const prompt = read.ok ? promptText(read.value) : undefined;
    if (prompt === undefined) unreadable++;
    else byEpisode.set(e.episodeId, createHash('sha256').update(prompt).digest('hex').slice(0, 16));
  }
  return { byEpisode, otherFormat, unreadable };
}

/** The episode's task prompt, trimmed; undefined when it logs none. */
function promptText(episode: Episode): string | undefined {
  const text = (episode.prompt ?? episode.messages.find((m) => m.role === 'user')?.content ?? '').trim();
  return text === '' ? undefined : text;
}
