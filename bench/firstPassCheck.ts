import { performance } from 'node:perf_hooks';
import { CreditFreshness } from '../src/store/creditFreshness';
import { CreditRepository } from '../src/store/creditRepository';
import { IndexStore } from '../src/store/indexStore';
import { median } from './processTiming';

/** What a first only-missing pass (the audit's) costs before it computes, each the median of its repeats. */
export interface FirstPassCheck {
  readonly episodes: number;
  /** Reading every id without current credit (`CreditFreshness.missingEpisodes`): what a first pass did. */
  readonly walkMs: number;
  /** Asking whether any row of the set is stored (`CreditRepository.hasParams`): what it does now. */
  readonly askMs: number;
}

/**
 * On an index with no credit of the measured set (`db`, not changed), the two ways a pass that
 * computes only missing credit learns that every episode of the largest run is missing.
 */
export function firstPassCheck(db: string, repeat = 5): FirstPassCheck {
  const store = IndexStore.open(db);
  try {
    const run = store.db
      .prepare<{ run_id: number }>('SELECT run_id FROM episode GROUP BY run_id ORDER BY count(*) DESC LIMIT 1')
      .get();
    if (!run) throw new Error(`${db} holds no episode`);
    const params = { method: 'loo', hash: 'first-pass-check', params: {} };
    const freshness = new CreditFreshness(store.db);
    const output = new CreditRepository(store.db);
    let episodes = 0;
    const walkMs = medianMs(repeat, () => {
      episodes = freshness.missingEpisodes(run.run_id, params.method, params.hash, [-Infinity, Infinity], 'all').length;
    });
    const askMs = medianMs(repeat, () => {
      if (output.hasParams(run.run_id, params)) throw new Error(`${db} holds credit of the measured set`);
    });
    return { episodes, walkMs, askMs };
  } finally {
    store.close();
  }
}

export function formatFirstPassCheck(check: FirstPassCheck): string {
  return `first only-missing pass, ${check.episodes} episodes: reading the missing ids ${check.walkMs.toFixed(1)} ms, asking whether any credit is stored ${check.askMs.toFixed(3)} ms`;
}

function medianMs(repeat: number, work: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}
