import type { EpisodePage, EpisodeRow } from '../../../src/protocol/dashboardPanel';
import { plural } from '../../../src/core/plural';
import { formatInt } from '../kit/format';
import { pageSize, pagesOf } from './tableModel';

/** One table query: a key naming run, filter, sort and revision, and how to fetch a page of it. */
export interface TableQuery {
  readonly key: string;
  readonly fetch: (offset: number, limit: number) => Promise<EpisodePage>;
}

/** Pages kept per query; the oldest fetched page is dropped beyond this. */
const maxPages = 60;

/**
 * The rows of the episode table, fetched page by page for the rows on screen and cached per query.
 * A new query key drops the cache; with `keepStale` (same query, newer revision) the old rows stay
 * on screen until their refetched pages arrive. Answers to an outdated query are ignored.
 */
export class TableData {
  private query: TableQuery | undefined;
  private pages = new Map<number, readonly EpisodeRow[]>();
  private stale = new Map<number, readonly EpisodeRow[]>();
  private pending = new Set<number>();
  /** Pages whose request failed: not asked again until the query changes (no request loop). */
  private failed = new Set<number>();
  /** Rows matching the query; undefined until the first page arrives. */
  total: number | undefined;
  /** The host counted only so far: more than `total` rows match (it grows as deeper pages load). */
  totalIsLowerBound = false;
  searchError: string | null = null;
  /** The search matched too many messages to sort: the rows are in index order. */
  inIndexOrder = false;
  /** Episodes the search cannot match yet: an indexing pass is still building the full-text index. */
  unsearched = 0;
  error: string | null = null;

  constructor(private readonly onChange: () => void) {}

  get key(): string | undefined {
    return this.query?.key;
  }

  /** Switches to `query` (no-op for the same key unless `keepStale` asks for a refetch). */
  setQuery(query: TableQuery, keepStale = false): void {
    if (!keepStale && this.query?.key === query.key) return;
    this.stale = keepStale ? new Map([...this.stale, ...this.pages]) : new Map<number, readonly EpisodeRow[]>();
    if (!keepStale) this.total = undefined;
    this.query = query;
    this.pages = new Map();
    this.pending = new Set();
    this.failed = new Set();
    this.error = null;
  }

  /** The row at `index` (a stale copy while its page is refetched), or undefined while it loads. */
  row(index: number): EpisodeRow | undefined {
    const page = Math.floor(index / pageSize);
    return (this.pages.get(page) ?? this.stale.get(page))?.[index % pageSize];
  }

  /** Fetches the missing pages of rows `[first, end)` (the first page while the total is unknown). */
  ensure(first: number, end: number): void {
    const query = this.query;
    if (!query) return;
    const limit = this.total === undefined ? first + 1 : Math.min(end, this.total);
    for (const page of pagesOf(first, limit)) {
      if (this.pages.has(page) || this.pending.has(page) || this.failed.has(page)) continue;
      if (this.total !== undefined && page * pageSize >= this.total && page > 0) continue;
      this.pending.add(page);
      void this.load(query, page);
    }
  }

  private async load(query: TableQuery, page: number): Promise<void> {
    try {
      const result = await query.fetch(page * pageSize, pageSize);
      if (query !== this.query) return;
      this.pages.set(page, result.rows);
      this.stale.delete(page);
      this.trim(page);
      this.total = result.total;
      this.totalIsLowerBound = result.totalIsLowerBound;
      this.searchError = result.searchError;
      this.inIndexOrder = result.inIndexOrder ?? false;
      this.unsearched = result.unsearched ?? 0;
      this.error = null;
    } catch (error) {
      if (query !== this.query) return;
      this.failed.add(page);
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (query === this.query) this.pending.delete(page);
    }
    this.onChange();
  }

  /**
   * The row count as the table's status says it: "1,234 episodes", or "10,500+ episodes" for a
   * lower bound, when a search is too big to sort, that its rows are in index order, and while
   * search is still being built, how many episodes it cannot match yet.
   */
  countText(): string {
    const total = this.total;
    if (total === undefined) return 'Loading…';
    const count = `${formatInt(total)}${this.totalIsLowerBound ? '+' : ''} episode${total === 1 && !this.totalIsLowerBound ? '' : 's'}`;
    const ordered = this.inIndexOrder ? `${count} in index order (too many matches to sort)` : count;
    return this.unsearched > 0
      ? `${ordered} · search still building: ${plural(this.unsearched, 'episode')} of this folder not yet searchable`
      : ordered;
  }

  /** Drops the oldest pages beyond the cap, never the one just loaded. */
  private trim(keep: number): void {
    for (const page of this.pages.keys()) {
      if (this.pages.size <= maxPages) break;
      if (page !== keep) this.pages.delete(page);
    }
  }
}
