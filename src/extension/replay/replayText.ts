import type { ChatClientStats } from '../../core/chat';
import { count } from '../indexReport';
import type { ReplayEstimate } from './replaySeams';

// The words the extension shows about a replay: the confirmation, progress and the closing note.
// Pure functions, tested without VS Code. None of them ever sees the API key.

/** Token counts as people read them: `950`, `12.3 k`, `0.9 M` (millions from 100,000 up). */
export function formatTokens(n: number): string {
  if (n >= 100_000) return `${(n / 1_000_000).toFixed(1)} M`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)} k`;
  return count(Math.round(n));
}

/** `42 s`, `3 min 05 s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${String(seconds)} s`;
  return `${String(Math.floor(seconds / 60))} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/**
 * The question of the confirmation dialog, e.g. `Replay 1,240 calls (~0.9 M prompt tokens, ~45.2 k
 * completion tokens) on http://127.0.0.1:8000/v1?`; `estimate` is the reason when there is none.
 */
export function confirmationText(estimate: ReplayEstimate | string, endpoint: string): string {
  if (typeof estimate === 'string')
    return `Replay on ${endpoint}? The number of calls could not be estimated (${estimate}).`;
  const calls = `${count(estimate.calls)} call${estimate.calls === 1 ? '' : 's'}`;
  return `Replay ${calls} (~${formatTokens(estimate.promptTokens)} prompt tokens, ~${formatTokens(estimate.completionTokens)} completion tokens) on ${endpoint}?`;
}

/** A progress line: `12 of ~40 calls · 31.2 k tokens · 42 s` (without an estimate, `12 calls · …`). */
export function replayProgressText(
  stats: ChatClientStats | undefined,
  estimate: ReplayEstimate | undefined,
  elapsedMs: number,
): string {
  const calls = stats?.calls ?? 0;
  const tokens = (stats?.promptTokens ?? 0) + (stats?.completionTokens ?? 0);
  const of = estimate ? `${count(calls)} of ~${count(estimate.calls)} calls` : `${count(calls)} calls`;
  const failed = stats && stats.failedCalls > 0 ? ` (${count(stats.failedCalls)} failed)` : '';
  return `${of}${failed} · ${formatTokens(tokens)} tokens · ${formatDuration(elapsedMs)}`;
}
