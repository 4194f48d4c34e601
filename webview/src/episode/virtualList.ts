import type { LabelView } from '../../../src/protocol/episodePanel';
import { h } from '../dom';
import { formatInt } from '../kit/format';
import { RowLayout, rowTop, scrollTargetFor, spacerHeight, toScrollTop, toVirtualTop, visibleRange } from './layout';
import { RowPool, type RowRecord, type RowSource } from './rowPool';
import type { EpisodeUi } from './state';
import type { CreditTint } from './tint';

/** Where the list reads messages from (a {@link MessageSource}). */
export interface ListSource extends RowSource {
  /** Asks for the messages of rows `first..last`. */
  ensure(first: number, last: number): void;
}

/** Rows drawn above and below the viewport, in pixels. */
const overscanPx = 800;
/** Estimate of the collapsed row height until one is measured. */
const estimatedRowPx = 68;

/**
 * The virtualized message timeline: only the rows in view (plus overscan, plus the focused row so
 * keyboard focus survives scrolling) are in the DOM, absolutely positioned on a spacer as tall as
 * the list ({@link RowLayout}). Collapsed rows share one measured height; expanded rows are
 * measured, and the row at the top stays put when heights change. `onChange` runs after any
 * change of `ui` (scroll position, focus, expanded messages).
 */
export class VirtualList {
  readonly element: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly layout: RowLayout;
  private readonly pool: RowPool;
  private readonly resizeObserver: ResizeObserver;
  private frame = 0;
  private baseMeasured = false;

  constructor(
    private readonly ui: EpisodeUi,
    count: number,
    private source: ListSource,
    private readonly onChange: (kind: 'scroll' | 'ui') => void,
  ) {
    this.layout = new RowLayout(count, estimatedRowPx);
    this.spacer = h('div', 'timeline-spacer');
    this.pool = new RowPool(this.spacer);
    this.spacer.setAttribute('role', 'list');
    this.element = h('div', 'timeline-viewport', this.spacer);
    this.element.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.spacer.addEventListener('focusin', (event) => this.onFocusIn(event));
    this.spacer.addEventListener('click', (event) => this.onClick(event));
    this.resizeObserver = new ResizeObserver(() => {
      for (const rec of this.pool.rows.values()) rec.measured = false;
      this.schedule();
    });
    this.setCount(count);
  }

  /** Call once the element is in the document: scrolls to `ui.topSeq` and draws. */
  start(): void {
    this.resizeObserver.observe(this.element);
    this.scrollToSeq(this.ui.topSeq, 'start');
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  get count(): number {
    return this.layout.rowCount;
  }

  setCount(count: number): void {
    this.layout.setCount(count);
    this.sizeSpacer();
    this.pool.setCount(count);
    this.spacer.setAttribute('aria-label', `Messages (${formatInt(count)})`);
    this.schedule();
  }

  /** Reads from another source (the same episode, refreshed); rows are drawn again. */
  setSource(source: ListSource): void {
    this.source = source;
    this.pool.invalidate();
    this.schedule();
  }

  setTint(tint: CreditTint | null): void {
    this.pool.setTint(tint);
  }

  setLabels(labels: ReadonlyMap<number, readonly LabelView[]>): void {
    this.pool.setLabels(labels);
    this.schedule();
  }

  /** Highlights `query` (lower-cased) in the rows. */
  setQuery(query: string): void {
    if (query === this.pool.query) return;
    this.pool.setQuery(query);
    this.schedule();
  }

  /** Messages arrived: draw them. */
  refresh(): void {
    this.schedule();
  }

  /** First row at the top of the viewport. */
  topSeq(): number {
    const viewport = this.element.clientHeight;
    return this.layout.seqAt(toVirtualTop(this.element.scrollTop, this.layout.total, viewport) + 1);
  }

  scrollToSeq(seq: number, align: 'nearest' | 'start'): void {
    if (this.count === 0) return;
    this.sizeSpacer();
    const viewport = this.element.clientHeight;
    const total = this.layout.total;
    const virtualTop = toVirtualTop(this.element.scrollTop, total, viewport);
    const target = scrollTargetFor(this.layout, clamp(seq, this.count), virtualTop, viewport, align);
    if (target !== virtualTop) this.element.scrollTop = toScrollTop(target, total, viewport);
    this.update();
  }

  /** Makes row `seq` (clamped) the current one and scrolls it into view, leaving keyboard focus where it is. */
  select(seq: number): void {
    if (this.count === 0) return;
    this.ui.focusedSeq = clamp(seq, this.count);
    this.scrollToSeq(this.ui.focusedSeq, 'nearest');
    this.onChange('ui');
  }

  /** Moves keyboard focus to row `seq` (clamped), scrolling it into view. */
  focus(seq: number): void {
    if (this.count === 0) return;
    this.select(seq);
    this.pool.rows.get(this.ui.focusedSeq)?.el.focus({ preventScroll: true });
  }

  /** Whether any part of row `seq` is in the viewport. */
  isInView(seq: number): boolean {
    if (seq < 0 || seq >= this.count) return false;
    const viewport = this.element.clientHeight;
    const virtualTop = toVirtualTop(this.element.scrollTop, this.layout.total, viewport);
    const top = this.layout.offsetOf(seq);
    return top < virtualTop + viewport && top + this.layout.heightOf(seq) > virtualTop;
  }

  /** Expands or collapses row `seq`. */
  toggle(seq: number): void {
    if (seq < 0 || seq >= this.count) return;
    if (this.ui.expanded.delete(seq)) this.layout.setHeight(seq, null);
    else this.ui.expanded.add(seq);
    this.update();
    this.onChange('ui');
  }

  private schedule(): void {
    this.frame ||= requestAnimationFrame(() => this.update());
  }

  private update(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (!this.element.isConnected) return;
    const viewport = this.element.clientHeight;
    let range: { first: number; last: number } | null = null;
    for (let pass = 0; pass < 3; pass++) {
      const scrollTop = this.element.scrollTop;
      const virtualTop = toVirtualTop(scrollTop, this.layout.total, viewport);
      range = visibleRange(this.layout, virtualTop, viewport, overscanPx);
      this.draw(range, virtualTop, scrollTop);
      if (!this.measure(virtualTop, viewport)) break;
    }
    if (range) this.source.ensure(range.first, range.last);
    const top = this.topSeq();
    if (top !== this.ui.topSeq) {
      this.ui.topSeq = top;
      this.onChange('scroll');
    }
  }

  private draw(range: { first: number; last: number } | null, virtualTop: number, scrollTop: number): void {
    const keep = new Set<number>();
    if (range) for (let seq = range.first; seq <= range.last; seq++) keep.add(seq);
    if (this.ui.focusedSeq < this.count) keep.add(this.ui.focusedSeq);
    this.pool.keepOnly(keep);
    for (const seq of keep) {
      const rec = this.pool.draw(seq, this.source, this.ui.expanded.has(seq));
      const current = seq === this.ui.focusedSeq;
      rec.el.tabIndex = current ? 0 : -1;
      rec.el.classList.toggle('is-current', current);
      rec.el.style.top = `${String(rowTop(this.layout.offsetOf(seq), virtualTop, scrollTop))}px`;
    }
  }

  /** Reads row heights into the layout; when they changed, keeps the top row in place. Returns whether they did. */
  private measure(virtualTop: number, viewport: number): boolean {
    const anchor = this.layout.seqAt(virtualTop);
    const anchorDelta = virtualTop - this.layout.offsetOf(anchor);
    let changed = false;
    const fresh: [number, RowRecord][] = [];
    for (const [seq, rec] of this.pool.rows) {
      if (rec.measured) continue;
      rec.measured = true;
      const height = rec.el.offsetHeight;
      if (height <= 0) continue;
      if (rec.expanded && rec.loaded) changed = this.layout.setHeight(seq, height) || changed;
      else if (!rec.expanded && !this.baseMeasured) {
        this.baseMeasured = true;
        changed = height !== this.layout.baseHeight;
        this.layout.setBaseHeight(height);
      }
      if (rec.loaded && !rec.expanded) fresh.push([seq, rec]);
    }
    this.pool.markLong(fresh, this.source);
    const total = this.sizeSpacer();
    if (changed) this.element.scrollTop = toScrollTop(this.layout.offsetOf(anchor) + anchorDelta, total, viewport);
    return changed;
  }

  private sizeSpacer(): number {
    const total = this.layout.total;
    this.spacer.style.height = `${String(spacerHeight(total))}px`;
    return total;
  }

  private onFocusIn(event: FocusEvent): void {
    const row = (event.target as Element | null)?.closest<HTMLElement>('.msg');
    const seq = Number(row?.dataset['seq']);
    if (!row || !Number.isInteger(seq) || seq === this.ui.focusedSeq) return;
    const previous = this.pool.rows.get(this.ui.focusedSeq)?.el;
    if (previous) {
      previous.tabIndex = -1;
      previous.classList.remove('is-current');
    }
    row.tabIndex = 0;
    row.classList.add('is-current');
    this.ui.focusedSeq = seq;
    this.onChange('ui');
  }

  private onClick(event: MouseEvent): void {
    const toggle = (event.target as Element | null)?.closest('.msg-toggle');
    const seq = Number(toggle?.closest<HTMLElement>('.msg')?.dataset['seq']);
    if (!toggle || !Number.isInteger(seq)) return;
    this.toggle(seq);
    this.pool.rows.get(seq)?.el.focus({ preventScroll: true });
  }
}

function clamp(seq: number, count: number): number {
  return Math.max(0, Math.min(count - 1, seq));
}
