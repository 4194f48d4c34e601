import type { EpisodeTableRow } from '../core/dashboardRows';
import type { BindValue, Db, Statement } from './database';
import { pageCreditSql, sortedAgent } from './episodeCreditColumns';
import { everyKind } from './episodeFlags';
import { SearchRepository } from './searchRepository';
import {
  countKey,
  creditCountKeys,
  episodePageQueries,
  filterParams,
  flagsPartKey,
  pageKey,
  splitCountSql,
  unfiltered,
  type EpisodePageQuery,
  type FixedSortKey,
  type FlagsPart,
  type SearchTest,
} from './episodePageSql';

/** Matches a filtered count reads past the page's end before it stops and calls the total a lower bound. */
export const defaultCountAhead = 10_000;
/**
 * Matching episodes a search may have and still be sorted as asked: a sorted page reads every match
 * (0.1-1 µs each, by the machine's load), a bigger search is listed in index order
 * ({@link EpisodePageResult.inIndexOrder}); telling the two apart reads up to this many.
 */
export const defaultSortableMatches = 100_000;

/** One row of an episode page. */
export type EpisodePageRow = EpisodeTableRow;

/** The run's agents (those in some roster) by agent id: the page's credit columns. */
export type RunAgents = (runId: number) => readonly { readonly agentId: number; readonly name: string }[];

/**
 * The Run Dashboard's episode table: filtered, sorted pages of a run's episodes with their match
 * count and per-agent credit. Every statement is prepared once.
 */
export class EpisodePages {
  private readonly pageStmts = new Map<string, Statement<EpisodePageRow>>();
  private readonly countStmts = new Map<string, Statement<{ n: number }>>();
  private readonly pageCreditStmt: Statement<{ episodeId: number; agentId: number; value: number | null }>;
  private readonly splitCountStmt: Statement<{ n: number }>;
  private readonly searchIndex: SearchRepository;

  /** `countAhead`, `sortableMatches`: see {@link defaultCountAhead}, {@link defaultSortableMatches} (a test makes them small). */
  constructor(
    db: Db,
    private readonly agents: RunAgents,
    private readonly countAhead = defaultCountAhead,
    private readonly sortableMatches = defaultSortableMatches,
  ) {
    this.searchIndex = new SearchRepository(db);
    for (const [key, sql] of episodePageQueries)
      if (key.startsWith('count:') || creditCountKeys.has(key)) this.countStmts.set(key, db.prepare(sql));
      else this.pageStmts.set(key, db.prepare(sql));
    this.pageCreditStmt = db.prepare(pageCreditSql);
    this.splitCountStmt = db.prepare(splitCountSql);
  }

  /**
   * One page of the run's episodes and the number of episodes matching the filter: exact without
   * filters, else counted up to `countAhead` matches past the page's end (`totalIsLowerBound`
   * then says there are more). A search matching more than `sortableMatches` episodes is listed
   * in index order (`inIndexOrder`), read from the full-text index only as far as the page goes.
   * Throws the SQLite error when the full-text query is malformed.
   */
  episodePage(query: EpisodePageQuery): EpisodePageResult {
    const params = filterParams(query);
    const search: SearchTest = 'set';
    const inIndexOrder =
      typeof params['search'] === 'string' && !this.searchIndex.matchesAtMost(params['search'], this.sortableMatches);
    const [total, totalIsLowerBound] = this.pageTotal(query, params, search, inIndexOrder);
    const agents = this.agents(query.runId);
    const names = agents.map((a) => a.name);
    const unsearched = typeof params['search'] === 'string' ? this.searchIndex.unsearchedCount() : 0;
    const head = { total, totalIsLowerBound, inIndexOrder, unsearched, agents: names };
    if (total <= query.offset) return { ...head, rows: [] };
    const window = { offset: query.offset, limit: query.limit };
    const rows = inIndexOrder ? this.rows('search:index', params, window) : this.sortedRows(query, params, window);
    return { ...head, rows: this.withCredit(query, rows, agents) };
  }

  /** The page's rows in the order the query asks for. */
  private sortedRows(query: EpisodePageQuery, params: Record<string, BindValue>, window: PageWindow): EpisodePageRow[] {
    const search: SearchTest = 'set';
    const sortAgent = sortedAgent(query.sort.key);
    if (sortAgent !== undefined) return this.creditPage({ ...params, sortAgent }, query.sort.descending, window);
    if (query.sort.key === 'flags') return this.flagsPage(params, query.sort.descending, search, window);
    return this.rows(pageKey(query.sort.key as FixedSortKey, query.sort.descending, search), params, window);
  }

  /**
   * Episodes matching the filter: from step_total without one, exact from the credit range with one,
   * else capped (from the search's matches in index order when it is too big to sort).
   */
  private pageTotal(
    query: EpisodePageQuery,
    params: Record<string, BindValue>,
    search: SearchTest,
    inIndexOrder: boolean,
  ): [number, boolean] {
    if (unfiltered(query.filter))
      return [this.splitCountStmt.get({ run: query.runId, split: params['split'] ?? null })?.n ?? 0, false];
    if (query.filter.agentCredit && query.credit)
      return [this.countStmts.get('creditRangeCount')?.get(params)?.n ?? 0, false];
    return this.cappedTotal(params, search, query.offset + query.limit + this.countAhead, inIndexOrder);
  }

  /** A page sorted by an agent's credit: the episodes with a value, then (once they run out) those without. */
  private creditPage(params: Record<string, BindValue>, descending: boolean, window: PageWindow): EpisodePageRow[] {
    const credited = this.rows(descending ? 'credit:desc' : 'credit:asc', params, window);
    if (credited.length === window.limit) return credited;
    // The credited part ends on this page (or before it): where it ends is where the rest starts.
    const creditedTotal =
      credited.length > 0
        ? window.offset + credited.length
        : (this.countStmts.get('creditedCount')?.get(params)?.n ?? 0);
    const rest = this.rows('uncredited', params, {
      limit: window.limit - credited.length,
      offset: Math.max(0, window.offset - creditedTotal),
    });
    return [...credited, ...rest];
  }

  /** `rows` with their agents' agent-level credit (every value null without `query.credit`). */
  private withCredit(
    query: EpisodePageQuery,
    rows: readonly EpisodePageRow[],
    agents: readonly { agentId: number }[],
  ): EpisodePageCreditRow[] {
    const credit = query.credit;
    const values = new Map<string, number | null>();
    if (credit && rows.length > 0) {
      const ids = JSON.stringify(rows.map((r) => r.episodeId));
      for (const v of this.pageCreditStmt.all({ ids, method: credit.method, hash: credit.paramsHash }))
        values.set(`${String(v.episodeId)}:${String(v.agentId)}`, v.value);
    }
    return rows.map((r) => ({
      ...r,
      credit: agents.map((a) => values.get(`${String(r.episodeId)}:${String(a.agentId)}`) ?? null),
    }));
  }

  /**
   * The filtered count up to `limit`, walking the smallest driver the filter allows (the search's
   * matches, in index order, for a search too big to sort); true when there are more.
   */
  private cappedTotal(
    params: Record<string, BindValue>,
    search: SearchTest,
    limit: number,
    inIndexOrder: boolean,
  ): [number, boolean] {
    const key = inIndexOrder
      ? countKey('matches', 'none')
      : params['flag'] !== null
        ? countKey('flagged', search)
        : params['search'] !== null
          ? countKey('matches', 'none')
          : countKey('episodes', search);
    const n = this.count(key, params, limit);
    return n > limit ? [limit, true] : [n, false];
  }

  private count(key: string, params: Record<string, BindValue>, limit: number): number {
    const stmt = this.countStmts.get(key);
    if (!stmt) throw new Error(`unknown count ${key}`);
    return stmt.get({ ...params, countLimit: limit })?.n ?? 0;
  }

  private rows(key: string, params: Record<string, BindValue>, window: PageWindow): EpisodePageRow[] {
    const stmt = this.pageStmts.get(key);
    if (!stmt) throw new Error(`unknown page ${key}`);
    return stmt.all({ ...params, ...window });
  }

  /**
   * The page sorted by flags: the part read first (flagged when descending), then, once it runs
   * out, the other from the offset left over (the first part's exact count, when the page starts
   * past it). With the flag filter every match is flagged.
   */
  private flagsPage(
    params: Record<string, BindValue>,
    descending: boolean,
    search: SearchTest,
    window: PageWindow,
  ): EpisodePageRow[] {
    const flagFiltered = params['flag'] !== null;
    const [first, second]: [FlagsPart, FlagsPart] =
      descending || flagFiltered ? ['flagged', 'unflagged'] : ['unflagged', 'flagged'];
    const rows = this.rows(flagsPartKey(first, descending, search), params, window);
    if (rows.length === window.limit || (flagFiltered && first === 'flagged')) return rows;
    const firstCount = rows.length > 0 ? window.offset + rows.length : this.partCount(first, params, search);
    const rest = this.rows(flagsPartKey(second, descending, search), params, {
      offset: Math.max(0, window.offset - firstCount),
      limit: window.limit - rows.length,
    });
    return [...rows, ...rest];
  }

  /** The exact number of matches in one part of the flags sort. */
  private partCount(part: FlagsPart, params: Record<string, BindValue>, search: SearchTest): number {
    const flagged = this.count(countKey('flagged', search), { ...params, flag: everyKind }, -1);
    return part === 'flagged' ? flagged : this.count(countKey('episodes', search), params, -1) - flagged;
  }
}

interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}

/** An episode page and the filter's match count (a lower bound when `totalIsLowerBound`). */
export interface EpisodePageResult {
  readonly total: number;
  readonly totalIsLowerBound: boolean;
  /** True when a search matched too many messages to sort: the rows come in index (episode id) order. */
  readonly inIndexOrder: boolean;
  /** With a search: the index's episodes not yet in the full-text index, whose matches are missing (0 without a search). */
  readonly unsearched: number;
  /** The run's agents, in the order of each row's `credit`. */
  readonly agents: string[];
  readonly rows: EpisodePageCreditRow[];
}

/** A page row with its agents' credit, in the order of {@link EpisodePageResult.agents} (null: no value). */
export type EpisodePageCreditRow = EpisodePageRow & { readonly credit: readonly (number | null)[] };
