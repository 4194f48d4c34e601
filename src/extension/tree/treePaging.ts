/** One page of a long tree level: items `offset + 1 … offset + count`, `size` per page at its depth. */
export interface PageSpan {
  readonly offset: number;
  readonly count: number;
  readonly size: number;
}

/**
 * Splits `length` items from `offset` into at most `max` pages of `max^k` items (the smallest k
 * that fits), so a level of n items is reached in log_max(n) clicks and the pages before the last
 * keep their bounds while the level grows.
 */
export function pageSpans(offset: number, length: number, max: number): PageSpan[] {
  let size = max;
  while (Math.ceil(length / size) > max) size *= max;
  const pages: PageSpan[] = [];
  for (let at = offset; at < offset + length; at += size)
    pages.push({ offset: at, count: Math.min(size, offset + length - at), size });
  return pages;
}

/**
 * The width of the top step ranges of steps `from..to`: `perRange` steps, times `perRange` again
 * until at most `max` aligned ranges cover the span (steps 0–99, or 0–9999 holding 0–99, …).
 */
export function rangeWidth(
  span: { readonly from: number; readonly to: number },
  perRange: number,
  max: number,
): number {
  let width = perRange;
  while (Math.floor(span.to / width) - Math.floor(span.from / width) + 1 > max) width *= perRange;
  return width;
}
