// Geometry of the virtualized message list. Pure: no DOM.
//
// Every row has the collapsed height (`base`) unless it was measured otherwise (expanded rows), so
// the offset of a row is `seq × base` plus the extra height of the measured rows before it: O(log E)
// with E measured rows, whatever the message count. Lists taller than the browser's largest element
// (~16.7 M px in Chromium) are drawn on a shorter spacer and scrolled through a linear map.

/** Tallest spacer the list creates; taller lists are scaled (well under Chromium's and Firefox's limits). */
export const maxSpacerPx = 8_000_000;

export class RowLayout {
  private readonly heights = new Map<number, number>();
  private sortedSeqs: number[] = [];
  private prefixExtra: number[] = [];
  private dirty = false;

  constructor(
    private count: number,
    private base: number,
  ) {}

  get rowCount(): number {
    return this.count;
  }

  get baseHeight(): number {
    return this.base;
  }

  setCount(count: number): void {
    this.count = count;
    for (const seq of this.heights.keys()) if (seq >= count) this.heights.delete(seq);
    this.dirty = true;
  }

  setBaseHeight(base: number): void {
    this.base = base;
    this.dirty = true;
  }

  /** Height of `seq`: its measured height, else the base height. */
  heightOf(seq: number): number {
    return this.heights.get(seq) ?? this.base;
  }

  /** Records a measured height; `null` forgets it (the row is collapsed again). Returns whether it changed. */
  setHeight(seq: number, height: number | null): boolean {
    const previous = this.heights.get(seq);
    if (height === null || height === this.base) {
      if (previous === undefined) return false;
      this.heights.delete(seq);
    } else {
      if (previous === height) return false;
      this.heights.set(seq, height);
    }
    this.dirty = true;
    return true;
  }

  /** Total height of all rows. */
  get total(): number {
    this.refresh();
    return this.count * this.base + (this.prefixExtra[this.prefixExtra.length - 1] ?? 0);
  }

  /** Top of row `seq` (0 ≤ seq ≤ count; `count` gives the total). */
  offsetOf(seq: number): number {
    this.refresh();
    // Measured rows strictly before seq.
    let lo = 0;
    let hi = this.sortedSeqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.sortedSeqs[mid] ?? 0) < seq) lo = mid + 1;
      else hi = mid;
    }
    return seq * this.base + (lo === 0 ? 0 : (this.prefixExtra[lo - 1] ?? 0));
  }

  /** The row at height `y` (clamped to the rows; 0 for an empty list). */
  seqAt(y: number): number {
    if (this.count === 0 || y <= 0) return 0;
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsetOf(mid) <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.sortedSeqs = [...this.heights.keys()].sort((a, b) => a - b);
    let sum = 0;
    this.prefixExtra = this.sortedSeqs.map((seq) => (sum += (this.heights.get(seq) ?? this.base) - this.base));
  }
}

/** Height of the element that makes the list scroll. */
export function spacerHeight(total: number): number {
  return Math.min(total, maxSpacerPx);
}

/** The list offset shown at the top for a `scrollTop` of the spacer (identity when not scaled). */
export function toVirtualTop(scrollTop: number, total: number, viewport: number): number {
  const spacer = spacerHeight(total);
  if (spacer >= total) return scrollTop;
  const maxScroll = spacer - viewport;
  return maxScroll <= 0 ? 0 : (Math.min(scrollTop, maxScroll) * (total - viewport)) / maxScroll;
}

/** The inverse of {@link toVirtualTop}: the `scrollTop` that shows list offset `virtualTop` at the top. */
export function toScrollTop(virtualTop: number, total: number, viewport: number): number {
  const spacer = spacerHeight(total);
  const clamped = Math.max(0, Math.min(virtualTop, Math.max(0, total - viewport)));
  if (spacer >= total) return clamped;
  const maxVirtual = total - viewport;
  return maxVirtual <= 0 ? 0 : (clamped * (spacer - viewport)) / maxVirtual;
}

/** Where to draw a row whose list offset is `offset`, in spacer coordinates. */
export function rowTop(offset: number, virtualTop: number, scrollTop: number): number {
  return scrollTop + (offset - virtualTop);
}

/** First and last rows (inclusive) that intersect `[virtualTop − overscan, virtualTop + viewport + overscan]`; null when empty. */
export function visibleRange(
  layout: RowLayout,
  virtualTop: number,
  viewport: number,
  overscan: number,
): { first: number; last: number } | null {
  if (layout.rowCount === 0) return null;
  const first = layout.seqAt(virtualTop - overscan);
  const last = layout.seqAt(virtualTop + viewport + overscan);
  return { first, last };
}

/** The list offset to scroll to so that `seq` is visible: unchanged when it already is. */
export function scrollTargetFor(
  layout: RowLayout,
  seq: number,
  virtualTop: number,
  viewport: number,
  align: 'nearest' | 'start',
): number {
  const top = layout.offsetOf(seq);
  const bottom = top + layout.heightOf(seq);
  if (align === 'start') return top;
  if (top < virtualTop) return top;
  if (bottom > virtualTop + viewport) return Math.min(top, bottom - viewport);
  return virtualTop;
}
