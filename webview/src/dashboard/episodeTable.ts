import type { EpisodeRow, EpisodeSortKey } from '../../../src/protocol/dashboardPanel';
import { h } from '../dom';
import { columns as fixedColumns, type Column } from './tableColumns';
import { TableData, type TableQuery } from './tableData';
import { moveFocus, rowHeight, scrollToShow, topRowAt, visibleRows } from './tableModel';
import type { EpisodeSort } from './viewState';

export interface TableActions {
  sort(key: EpisodeSortKey): void;
  open(row: EpisodeRow): void;
  /** A Group cell's link was clicked: open the row's GRPO group. */
  readonly openGroup?: (row: EpisodeRow) => void;
  /** The first visible row changed (scrolling). */
  scrolled(topRow: number): void;
  /** A page arrived: total and search error may have changed. */
  loaded(total: number | undefined, searchError: string | null): void;
}

/**
 * The virtualized episode table: an ARIA grid whose body holds only the rows on screen (absolutely
 * placed over a spacer as tall as all rows), fetched page by page through {@link TableData}. The
 * grid keeps focus; the focused row is its active descendant (aria-selected, class `focused`).
 */
export class EpisodeTable {
  readonly element: HTMLElement;
  readonly grid = h('div', 'grid');
  private readonly viewport = h('div', 'viewport');
  private readonly spacer = h('div', 'spacer');
  private readonly message = h('div', 'grid-message');
  private readonly headers = new Map<EpisodeSortKey, HTMLElement>();
  private readonly data: TableData;
  private rendered = new Map<number, { element: HTMLElement; row: EpisodeRow | undefined }>();
  private focusIndex = -1;
  private restoreTop: number | undefined;
  private lastTop = -1;
  private frame = 0;
  private columns: readonly Column[] = fixedColumns;
  private headerGroup: HTMLElement;
  private sort: EpisodeSort | undefined;

  constructor(private readonly actions: TableActions) {
    this.data = new TableData(() => {
      this.actions.loaded(this.data.total, this.data.searchError);
      this.render();
    });
    this.grid.setAttribute('role', 'grid');
    this.grid.setAttribute('aria-label', 'Episodes (Enter opens, j/k move)');
    this.grid.tabIndex = 0;
    this.grid.id = 'episode-grid';
    this.viewport.append(this.spacer, this.message);
    this.viewport.setAttribute('role', 'rowgroup');
    this.headerGroup = this.header();
    this.grid.append(this.headerGroup, this.viewport);
    this.viewport.addEventListener('scroll', () => {
      this.schedule();
    });
    new ResizeObserver(() => {
      this.schedule();
    }).observe(this.viewport);
    this.element = h('div', 'episode-table', this.grid);
  }

  /** Shows `columns` (the fixed ones and the agent columns shown): a new header, every row redrawn. */
  setColumns(columns: readonly Column[]): void {
    if (columns.map((c) => c.id + c.label).join('\n') === this.columns.map((c) => c.id + c.label).join('\n')) return;
    this.columns = columns;
    this.headers.clear();
    const header = this.header();
    this.headerGroup.replaceWith(header);
    this.headerGroup = header;
    for (const { element } of this.rendered.values()) element.remove();
    this.rendered = new Map();
    if (this.sort) this.setSort(this.sort);
    this.render();
  }

  private header(): HTMLElement {
    const agentColumns = this.columns.length - fixedColumns.length;
    this.grid.style.setProperty('--agent-columns', agentColumns > 0 ? `repeat(${String(agentColumns)}, 72px)` : '');
    this.grid.setAttribute('aria-colcount', String(this.columns.length));
    const cells = this.columns.map((column, i) => {
      const cell = h('div', `cell col-${column.id}${column.numeric ? ' num' : ''}`);
      cell.setAttribute('role', 'columnheader');
      cell.setAttribute('aria-colindex', String(i + 1));
      const sortKey = column.sort;
      if (sortKey) {
        const sortButton = h('button', 'sort-button', column.label, h('span', 'sort-indicator'));
        sortButton.type = 'button';
        sortButton.id = `sort-${column.id}`;
        sortButton.addEventListener('click', () => {
          this.actions.sort(sortKey);
        });
        cell.append(sortButton);
        this.headers.set(sortKey, cell);
      } else cell.append(column.label);
      if (column.numeric && column.sort?.startsWith('credit:')) cell.title = `${column.label}'s credit`;
      return cell;
    });
    const row = h('div', 'row header', ...cells);
    row.setAttribute('role', 'row');
    row.setAttribute('aria-rowindex', '1');
    const group = h('div', 'header-group', row);
    group.setAttribute('role', 'rowgroup');
    return group;
  }

  /** Shows `sort` on the headers (aria-sort). */
  setSort(sort: EpisodeSort): void {
    this.sort = sort;
    for (const [key, cell] of this.headers) {
      const state = key === sort.key ? (sort.descending ? 'descending' : 'ascending') : 'none';
      cell.setAttribute('aria-sort', state);
      const indicator = cell.querySelector('.sort-indicator');
      if (indicator) indicator.textContent = state === 'none' ? '' : state === 'ascending' ? ' ▲' : ' ▼';
    }
  }

  /**
   * Switches to `query`. A new query scrolls to `topRow` once its first page arrives and drops the
   * row focus; `keepStale` (a newer revision of the same query) keeps rows, scroll and focus.
   */
  setQuery(query: TableQuery, options: { keepStale?: boolean; topRow?: number } = {}): void {
    if (!options.keepStale && this.data.key === query.key) return;
    this.data.setQuery(query, options.keepStale);
    if (!options.keepStale) {
      this.focusIndex = -1;
      this.restoreTop = options.topRow ?? 0;
      this.viewport.scrollTop = 0;
    }
    this.render();
  }

  private schedule(): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => {
      this.render();
    });
  }

  /** Brings the rows on screen into the DOM (and asks for their pages). */
  render(): void {
    const total = this.data.total;
    this.applyRestore(total);
    const count = total ?? 0;
    this.spacer.style.height = `${String(count * rowHeight)}px`;
    this.grid.setAttribute('aria-rowcount', String(count + 1));
    const { first, end } = visibleRows(this.viewport.scrollTop, this.viewport.clientHeight, count);
    this.data.ensure(total === undefined ? (this.restoreTop ?? 0) : first, end);
    this.renderRows(first, end);
    this.renderMessage(total);
    this.reportTop();
  }

  private applyRestore(total: number | undefined): void {
    if (this.restoreTop === undefined || total === undefined) return;
    this.spacer.style.height = `${String(total * rowHeight)}px`;
    this.viewport.scrollTop = Math.min(this.restoreTop, Math.max(0, total - 1)) * rowHeight;
    this.restoreTop = undefined;
  }

  private renderRows(first: number, end: number): void {
    const next = new Map<number, { element: HTMLElement; row: EpisodeRow | undefined }>();
    for (let index = first; index < end; index++) {
      const row = this.data.row(index);
      const old = this.rendered.get(index);
      const entry = old && old.row === row ? old : { element: this.rowElement(index, row), row };
      if (entry !== old) {
        if (old) old.element.replaceWith(entry.element);
        else this.viewport.append(entry.element);
      }
      this.rendered.delete(index);
      next.set(index, entry);
    }
    for (const { element } of this.rendered.values()) element.remove();
    this.rendered = next;
    this.markFocus();
  }

  private rowElement(index: number, row: EpisodeRow | undefined): HTMLElement {
    const cells = row
      ? this.columns.map((column, i) => {
          const text = column.text(row);
          const cell = h('div', `cell col-${column.id}${column.numeric ? ' num' : ''}`, this.cellContent(column, row));
          cell.setAttribute('role', 'gridcell');
          cell.setAttribute('aria-colindex', String(i + 1));
          if (!column.numeric) cell.title = text;
          return cell;
        })
      : [h('div', 'cell loading-cell', 'Loading…')];
    const element = h('div', row ? 'row' : 'row loading', ...cells);
    element.id = `episode-row-${String(index)}`;
    element.setAttribute('role', 'row');
    element.setAttribute('aria-rowindex', String(index + 2));
    element.style.transform = `translateY(${String(index * rowHeight)}px)`;
    element.addEventListener('click', () => {
      this.focusRow(index);
    });
    element.addEventListener('dblclick', () => {
      this.focusRow(index);
      this.open();
    });
    return element;
  }

  /**
   * A cell's text, or a link to what it opens. The link is out of the page's tab order (the grid keeps
   * the arrows, and the sort buttons come first in the DOM): Tab on the grid moves to the focused
   * row's link ({@link focusLink}), where Enter opens it.
   */
  private cellContent(column: Column, row: EpisodeRow): string | HTMLElement {
    const text = column.text(row);
    const title = column.link?.(row) ?? null;
    const openGroup = this.actions.openGroup;
    if (title === null || !openGroup) return text;
    const link = h('button', 'link-button cell-link', text);
    link.type = 'button';
    link.tabIndex = -1;
    link.title = title;
    link.addEventListener('click', (event) => {
      event.stopPropagation();
      openGroup(row);
    });
    return link;
  }

  private renderMessage(total: number | undefined): void {
    const text =
      this.data.error ??
      (total === undefined ? 'Loading episodes…' : total === 0 ? 'No episodes match the filters.' : '');
    this.message.textContent = text;
    this.message.hidden = text === '';
    this.message.classList.toggle('error', this.data.error !== null);
  }

  private markFocus(): void {
    for (const [index, { element }] of this.rendered) {
      const focused = index === this.focusIndex;
      element.classList.toggle('focused', focused);
      element.setAttribute('aria-selected', String(focused));
    }
    const active = this.rendered.get(this.focusIndex);
    if (active) this.grid.setAttribute('aria-activedescendant', active.element.id);
    else this.grid.removeAttribute('aria-activedescendant');
  }

  private reportTop(): void {
    const top = topRowAt(this.viewport.scrollTop);
    if (top === this.lastTop || this.data.total === undefined) return;
    this.lastTop = top;
    this.actions.scrolled(top);
  }

  /** Rows that fit the viewport (the Page Up/Down step). */
  get pageRows(): number {
    return Math.max(1, Math.floor(this.viewport.clientHeight / rowHeight) - 1);
  }

  /** Moves the row focus by `delta` rows (from no focus: to the first row on screen), scrolls it into view and focuses the grid. */
  move(delta: number): void {
    const total = this.data.total ?? 0;
    if (total === 0) return;
    if (this.focusIndex < 0) this.focusRow(Math.min(total - 1, topRowAt(this.viewport.scrollTop)));
    else this.focusRow(moveFocus(this.focusIndex, delta, total));
  }

  /** Focuses row `index` (clamped), scrolls it into view and focuses the grid. */
  focusRow(index: number): void {
    this.focusIndex = index;
    if (index >= 0) this.viewport.scrollTop = scrollToShow(index, this.viewport.scrollTop, this.viewport.clientHeight);
    this.grid.focus({ preventScroll: true });
    this.render();
  }

  /** Focuses the focused row's link (its Group cell); false when that row has none on screen. */
  focusLink(): boolean {
    const link = this.rendered.get(this.focusIndex)?.element.querySelector<HTMLElement>('.cell-link');
    link?.focus();
    return link !== undefined && link !== null;
  }

  /** Whether `element` is the link of a row. */
  isLink(element: Element | null): boolean {
    return element !== null && this.viewport.contains(element) && element.classList.contains('cell-link');
  }

  /** Opens the focused row, if it has loaded. */
  open(): void {
    const row = this.focusIndex >= 0 ? this.data.row(this.focusIndex) : undefined;
    if (row) this.actions.open(row);
  }

  get total(): number | undefined {
    return this.data.total;
  }

  /** A short count for the status line. */
  countText(): string {
    return this.data.countText();
  }
}
