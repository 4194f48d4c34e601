import type { LabelView, MessageView } from '../../../src/protocol/episodePanel';
import { paintTint, previewChars, renderRow, type RowView } from './row';
import type { CreditTint } from './tint';

/** Where rows read their messages from. */
export interface RowSource {
  message(seq: number): MessageView | undefined;
  error(seq: number): string | undefined;
}

/** A drawn row and what it was drawn from (to redraw only when that changes). */
export interface RowRecord {
  readonly el: HTMLElement;
  readonly loaded: boolean;
  readonly failed: boolean;
  readonly expanded: boolean;
  readonly query: string;
  /** The pool's generation when drawn: rows of an older one are drawn again. */
  readonly generation: number;
  /** Its height has been read since it was drawn (or since the viewport resized). */
  measured: boolean;
}

/**
 * The rows of the virtual list that are in the DOM, keyed by seq, kept in seq order inside
 * `container` (the reading order of a screen reader). Keyboard focus moves to a row's replacement.
 */
export class RowPool {
  readonly rows = new Map<number, RowRecord>();
  private view: RowView = { count: 0, tint: null, query: '', labels: new Map() };
  private generation = 0;

  constructor(private readonly container: HTMLElement) {}

  get query(): string {
    return this.view.query;
  }

  setCount(count: number): void {
    if (count === this.view.count) return;
    this.view = { ...this.view, count };
    this.invalidate();
  }

  setLabels(labels: ReadonlyMap<number, readonly LabelView[]>): void {
    this.view = { ...this.view, labels };
    this.invalidate();
  }

  /** Every row is drawn again on its next {@link draw} (in place, keeping keyboard focus). */
  invalidate(): void {
    this.generation++;
  }

  setQuery(query: string): void {
    this.view = { ...this.view, query };
  }

  /** Re-colours the drawn rows in place. */
  setTint(tint: CreditTint | null): void {
    this.view = { ...this.view, tint };
    for (const [seq, rec] of this.rows) paintTint(rec.el, seq, tint);
  }

  /** Draws row `seq`, or returns it as it is when nothing it shows has changed. */
  draw(seq: number, source: RowSource, expanded: boolean): RowRecord {
    const message = source.message(seq);
    const error = message ? undefined : source.error(seq);
    const old = this.rows.get(seq);
    if (
      old &&
      old.generation === this.generation &&
      old.loaded === !!message &&
      old.failed === !!error &&
      old.expanded === expanded &&
      old.query === this.view.query
    )
      return old;
    const el = renderRow(seq, message, error, expanded, this.view);
    const rec: RowRecord = {
      el,
      loaded: !!message,
      failed: !!error,
      expanded,
      query: this.view.query,
      generation: this.generation,
      measured: false,
    };
    if (old) {
      const hadFocus = document.activeElement === old.el;
      old.el.replaceWith(el);
      if (hadFocus) el.focus({ preventScroll: true });
    } else {
      this.container.insertBefore(el, this.nextElement(seq));
    }
    this.rows.set(seq, rec);
    return rec;
  }

  /** Removes the rows not in `keep`. */
  keepOnly(keep: ReadonlySet<number>): void {
    for (const [seq, rec] of this.rows) {
      if (keep.has(seq)) continue;
      rec.el.remove();
      this.rows.delete(seq);
    }
  }

  /**
   * Marks collapsed rows whose text does not fit, and tool messages (expanded, they show their
   * calls structured), so they show the Expand button (reads layout).
   */
  markLong(rows: readonly (readonly [number, RowRecord])[], source: RowSource): void {
    const long = rows.filter(([seq, rec]) => {
      const body = rec.el.querySelector('.msg-body');
      const message = source.message(seq);
      return (
        (message !== undefined &&
          (message.content.length > previewChars ||
            message.toolCalls !== undefined ||
            message.toolResult !== undefined)) ||
        (body !== null && body.scrollHeight > body.clientHeight + 1)
      );
    });
    for (const [, rec] of long) rec.el.classList.add('is-long');
  }

  /** The drawn row after `seq`, to insert before. */
  private nextElement(seq: number): HTMLElement | null {
    let next: number | null = null;
    for (const other of this.rows.keys()) if (other > seq && (next === null || other < next)) next = other;
    return next === null ? null : (this.rows.get(next)?.el ?? null);
  }
}
