import { err, ok, type Result } from './result';

/**
 * Parses an inclusive training-step range: `A..B`, `A..` (from A on), `..B` (up to B) or a single
 * step `A`; steps may be negative. The error text completes a sentence such as `--step …` or
 * `Steps …` (`must look like A..B, A.. or ..B, got "x"`).
 */
export function parseStepRange(text: string): Result<readonly [number, number]> {
  const match = /^(-?\d+)?(\.\.)?(-?\d+)?$/.exec(text.trim());
  if (!match || (!match[1] && !match[3])) return err(`must look like A..B, A.. or ..B, got "${text}"`);
  const from = match[1] ? Number(match[1]) : -Infinity;
  const to = match[3] ? Number(match[3]) : match[2] ? Infinity : from;
  if (from > to) return err(`${text}: the range is empty`);
  return ok([from, to]);
}
