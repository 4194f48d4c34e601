import type { MessageView } from '../../../src/protocol/episodePanel';
import { windowBounds, windowOf } from './windows';

// Find-in-episode logic: which messages match, the order windows are scanned in, and how a text
// splits around matches for highlighting. Pure: no DOM.

export type FindDirection = 'forward' | 'backward';

/** Whether `message`'s text or agent contains `needle` (case-insensitive; `needle` already lower-cased). */
export function messageMatches(message: Pick<MessageView, 'content' | 'agent'>, needle: string): boolean {
  return (
    needle !== '' && (message.content.toLowerCase().includes(needle) || message.agent.toLowerCase().includes(needle))
  );
}

/** A stretch of rows to scan, in scan order (`from` may exceed `to` when scanning backward). */
export interface ScanSegment {
  readonly window: number;
  readonly from: number;
  readonly to: number;
}

/**
 * Segments to scan for the next match after `fromSeq` (exclusive) in `direction`, wrapping around
 * the episode, covering at most `maxWindows` windows. The last segment ends just before `fromSeq`
 * (inclusive of it) when the budget allows a full lap. Empty for an empty episode.
 */
export function scanPlan(fromSeq: number, direction: FindDirection, count: number, maxWindows: number): ScanSegment[] {
  if (count === 0) return [];
  const step = direction === 'forward' ? 1 : -1;
  const segments: ScanSegment[] = [];
  let seq = (fromSeq + step + count) % count;
  let remaining = count;
  while (remaining > 0 && segments.length < maxWindows) {
    const window = windowOf(seq);
    const { offset, limit } = windowBounds(window, count);
    const edge = step > 0 ? offset + limit - 1 : offset;
    const length = Math.min(Math.abs(edge - seq) + 1, remaining);
    const to = seq + step * (length - 1);
    segments.push({ window, from: seq, to });
    remaining -= length;
    seq = (to + step + count) % count;
  }
  return segments;
}

/** Rows a plan covers. */
export function plannedRows(plan: readonly ScanSegment[]): number {
  return plan.reduce((sum, s) => sum + Math.abs(s.to - s.from) + 1, 0);
}

/** The first matching seq of `segment`, in scan order, given the window's messages by seq. */
export function findInSegment(
  segment: ScanSegment,
  messageAt: (seq: number) => MessageView | undefined,
  needle: string,
): number | null {
  const step = segment.to >= segment.from ? 1 : -1;
  for (let seq = segment.from; step > 0 ? seq <= segment.to : seq >= segment.to; seq += step) {
    const message = messageAt(seq);
    if (message && messageMatches(message, needle)) return seq;
  }
  return null;
}

/** `text` cut into runs that do / do not match `needle` (case-insensitive), for highlighting. */
export function splitMatches(text: string, needle: string): { text: string; match: boolean }[] {
  if (needle === '') return [{ text, match: false }];
  const lower = text.toLowerCase();
  const runs: { text: string; match: boolean }[] = [];
  let at = 0;
  for (let hit = lower.indexOf(needle); hit !== -1; hit = lower.indexOf(needle, hit + needle.length)) {
    if (hit > at) runs.push({ text: text.slice(at, hit), match: false });
    runs.push({ text: text.slice(hit, hit + needle.length), match: true });
    at = hit + needle.length;
  }
  if (at < text.length || runs.length === 0) runs.push({ text: text.slice(at), match: false });
  return runs;
}
