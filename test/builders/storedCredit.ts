import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before } from 'node:test';
import { writeDemoRun } from '../../src/demo/writeDemoRun';
import { runIndexJob } from '../../src/engine/indexJob';
import { IndexStore } from '../../src/store/indexStore';
import { tempFolder } from './episodeBuilder';

/** Every stored row a pass writes, without its row ids and times. */
export function storedCredit(dbPath: string): Record<string, unknown[]> {
  const store = IndexStore.open(dbPath);
  try {
    const all = (sql: string): unknown[] => store.db.prepare(sql).all();
    return {
      credit: all(`SELECT run_id, episode_id, scope_kind, scope_id, agent_id, message_seq, method, value, stderr, n,
        params_hash, ci_low, ci_high, advantage, approximate, source, status, intervention
        FROM credit ORDER BY method, params_hash, episode_id, agent_id, message_seq`),
      errors: all(
        'SELECT run_id, episode_id, method, params_hash, reason, status, remedy FROM credit_error ORDER BY 1, 2, 3',
      ),
      params: all('SELECT * FROM credit_params ORDER BY 1, 2, 3'),
      evaluations: all('SELECT episode_id, evaluator, intervention, value, replayed FROM evaluation ORDER BY 1, 2, 3'),
      calibration: all(
        'SELECT run_id, evaluator, sampled, agreed, threshold, accepted, reason FROM calibration ORDER BY 1, 2',
      ),
      aggregates: all('SELECT * FROM credit_step_agent ORDER BY 1, 2, 3, 4, 5, 6, 7'),
      coverage: all('SELECT * FROM credit_step_coverage ORDER BY 1, 2, 3, 4, 5'),
      signal: all('SELECT * FROM signal_step_agent ORDER BY 1, 2, 3, 4, 5, 6'),
    };
  } finally {
    store.close();
  }
}

/** The built index worker (`dist/indexWorker.js`), which tests of worker threads run. */
export const indexWorkerScript = resolve('dist/indexWorker.js');

/**
 * The demo run with `episodes`, written and indexed once (without search) before the file's tests,
 * which take fresh copies of its index; the built index worker is checked for then too.
 */
export function indexedDemo(episodes: number): { readonly root: string; copyOfIndex(): string } {
  const root = tempFolder();
  const indexed = join(tempFolder(), 'index.sqlite');
  before(async () => {
    assert.ok(existsSync(indexWorkerScript), 'dist/indexWorker.js missing: run `node esbuild.mjs` first');
    writeDemoRun(root, { episodes });
    await runIndexJob({ root, dbPath: indexed, search: false });
  });
  return {
    root,
    copyOfIndex: () => {
      const path = join(tempFolder(), 'index.sqlite');
      copyFileSync(indexed, path);
      return path;
    },
  };
}
