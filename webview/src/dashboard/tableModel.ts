/** Height of a table row in px (fixed, so positions follow from indexes). */
export const rowHeight = 24;
/** Rows fetched per GetEpisodesRequest (≤ maxEpisodePage). */
export const pageSize = 100;

/** Rows `[first, end)` to keep in the DOM for a scroll position, with `overscan` rows either side. */
export function visibleRows(
  scrollTop: number,
  viewportHeight: number,
  total: number,
  overscan = 6,
): { first: number; end: number } {
  if (total <= 0) return { first: 0, end: 0 };
  const top = Math.max(0, Math.floor(scrollTop / rowHeight));
  const first = Math.max(0, Math.min(total - 1, top) - overscan);
  const end = Math.min(total, top + Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1 + overscan);
  return { first, end: Math.max(first, end) };
}

/** First fully visible row at `scrollTop`. */
export function topRowAt(scrollTop: number): number {
  return Math.max(0, Math.round(scrollTop / rowHeight));
}

/** Pages (of `size` rows) that hold rows `[first, end)`; the page of `first` when the range is empty. */
export function pagesOf(first: number, end: number, size = pageSize): number[] {
  const from = Math.floor(Math.max(0, first) / size);
  const to = Math.floor(Math.max(first, end - 1) / size);
  const pages: number[] = [];
  for (let p = from; p <= to; p++) pages.push(p);
  return pages;
}

/**
 * The scrollTop that shows row `index` inside a viewport (unchanged when it already is): scrolled
 * just enough to bring the row to the top or bottom edge.
 */
export function scrollToShow(index: number, scrollTop: number, viewportHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return Math.max(0, top + rowHeight - viewportHeight);
  return scrollTop;
}

/** `index` moved by `delta` and kept inside `[0, total)`; -1 without rows. */
export function moveFocus(index: number, delta: number, total: number): number {
  if (total <= 0) return -1;
  if (index < 0) return delta >= 0 ? 0 : total - 1;
  return Math.max(0, Math.min(total - 1, index + delta));
}
