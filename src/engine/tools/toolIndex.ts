import { resolve } from 'node:path';
import { err, ok, type Result } from '../../core/result';
import { AgentSummaryRepository } from '../../store/agentSummaryRepository';
import { BrowseRepository } from '../../store/browseRepository';
import { CreditRepository } from '../../store/creditRepository';
import { DashboardRepository } from '../../store/dashboardRepository';
import { openDatabase, type Db } from '../../store/database';
import { EpisodeLookup } from '../../store/episodeLookup';
import { findIndexLocation } from '../indexLocation';
import { DashboardViewService } from '../views/dashboardViewService';
import { EpisodeViewService } from '../views/episodeViewService';
import type { DashboardRun } from '../views/viewTypes';

/** What the tools read: one run folder's index, opened read-only, and the services over it. */
export interface ToolIndex {
  /** Absolute path of the run folder: the tools' scope. */
  readonly root: string;
  /** The index file when given explicitly (`--db`, the extension's setting). */
  readonly dbPath: string | undefined;
  readonly db: Db;
  readonly dashboard: DashboardViewService;
  readonly episodes: EpisodeViewService;
  readonly browse: BrowseRepository;
  readonly lookup: EpisodeLookup;
  readonly credit: CreditRepository;
  readonly stored: DashboardRepository;
  readonly agents: AgentSummaryRepository;
  readonly close: () => void;
}

/**
 * Opens the index of `root` read-only for the tools (WAL lets a credit pass write beside it). An
 * error says how to build the index when the folder has none, or why it cannot be opened.
 */
export function openToolIndex(root: string, dbPath?: string): Result<ToolIndex> {
  const absolute = resolve(root);
  const location = findIndexLocation(absolute, dbPath);
  if (!location) return err(`${absolute} has no Credit Lens index yet: run \`credit-lens index ${root}\` first`);
  let db: Db;
  try {
    db = openDatabase(location.path, { readonly: true });
  } catch (error) {
    return err(`cannot open the index ${location.path}: ${(error as Error).message}`);
  }
  return ok({
    root: absolute,
    dbPath,
    db,
    dashboard: new DashboardViewService(db, absolute),
    episodes: new EpisodeViewService(db, absolute),
    browse: new BrowseRepository(db),
    lookup: new EpisodeLookup(db),
    credit: new CreditRepository(db),
    stored: new DashboardRepository(db),
    agents: new AgentSummaryRepository(db),
    close: () => {
      db.close();
    },
  });
}

/**
 * The run a tool names (`""` is a run at the folder's root); without a name, the folder's only
 * run. An error lists the runs there are.
 */
export function findRun(index: ToolIndex, name: unknown): Result<DashboardRun> {
  const runs = index.dashboard.runs();
  const names = runs.map((r) => `"${r.name}"`).join(', ');
  if (typeof name !== 'string') {
    const only = runs[0];
    if (runs.length === 1 && only) return ok(only);
    return err(runs.length === 0 ? 'the index holds no run' : `give "run": one of ${names}`);
  }
  const run = runs.find((r) => r.name === name);
  return run ? ok(run) : err(`no run "${name}" in this folder; runs: ${names || 'none'}`);
}

/** `text` cut to `max` characters with an ellipsis; the full length is the caller's to report. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** One page of `items` and the counts a caller pages on with. */
export function pageOf<T>(
  items: readonly T[],
  offset: number,
  limit: number,
): { readonly items: T[]; readonly total: number; readonly offset: number; readonly nextOffset: number | null } {
  const slice = items.slice(offset, offset + limit);
  const next = offset + slice.length;
  return { items: slice, total: items.length, offset, nextOffset: next < items.length ? next : null };
}
