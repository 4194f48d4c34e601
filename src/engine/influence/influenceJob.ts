import type { InfluenceGraphView } from '../../protocol/influence';
import { CreditInputRepository } from '../../store/creditInputRepository';
import { openDatabase, type Db } from '../../store/database';
import { EpisodeLookup, type EpisodeLocation } from '../../store/episodeLookup';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';
import { InfluenceService } from './influenceService';

/** What `credit-lens influence` asks for. */
export interface InfluenceJobOptions {
  readonly root: string;
  readonly dbPath?: string;
  /** An episode id as the trace names it; else every run's step range. */
  readonly episode?: string;
  /** A run's name or root; default every run of the index. */
  readonly run?: string;
  /** Inclusive step range (dashboard aggregate); default every step. */
  readonly steps?: readonly [number, number];
}

/** One graph with what it is about. */
export interface InfluenceJobGraph {
  readonly run: string;
  readonly episode: string | null;
  readonly steps: readonly [number, number] | null;
  readonly graph: InfluenceGraphView;
}

/**
 * Reads the influence graph (credit-methods.md §3.17) of one episode, or of each run's step range,
 * from an existing index, read-only. Throws NoIndexError without an index, and an Error naming the
 * episode or run when there is none by that name.
 */
export async function readInfluence(options: InfluenceJobOptions): Promise<InfluenceJobGraph[]> {
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  const db = openDatabase(location.path, { readonly: true });
  try {
    const service = new InfluenceService(db);
    const matches = (run: string): boolean => options.run === undefined || run === options.run;
    if (options.episode !== undefined) {
      const graphs: InfluenceJobGraph[] = [];
      for (const e of episodesNamed(db, options, options.episode)) {
        const graph = await service.episode(e.episodeId);
        if (graph) graphs.push({ run: e.run, episode: options.episode, steps: null, graph });
      }
      return graphs;
    }
    const runs = new CreditInputRepository(db).runs().filter((r) => matches(r.name) || r.root === options.run);
    if (runs.length === 0) throw new Error(`no run named "${options.run ?? ''}" in ${options.root}`);
    const graphs: InfluenceJobGraph[] = [];
    const [from, to] = options.steps ?? [null, null];
    for (const r of runs)
      graphs.push({
        run: r.name,
        episode: null,
        steps: options.steps ?? null,
        graph: await service.run(r.runId, from, to),
      });
    return graphs;
  } finally {
    db.close();
  }
}

/** The episodes named `episode` (of `options.run` when given); throws, naming it, when there is none. */
export function episodesNamed(db: Db, options: InfluenceJobOptions, episode: string): EpisodeLocation[] {
  const found = new EpisodeLookup(db)
    .byExternalId(episode)
    .filter((e) => options.run === undefined || e.run === options.run);
  if (found.length === 0) throw new Error(`no episode "${episode}" in ${options.root}`);
  return found;
}
