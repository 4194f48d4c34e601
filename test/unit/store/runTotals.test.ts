import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import type { Db } from '../../../src/store/database';
import { migrate } from '../../../src/store/migrate';
import type { IndexStore } from '../../../src/store/indexStore';
import { indexedDemo, revertTo11 } from './demoIndex';

/** What the summary says about runs, agents, steps, search and sources, mean rewards rounded. */
function summarised(store: IndexStore): unknown {
  const s = store.summary.summary();
  return {
    runs: s.runs.map((r) => ({
      root: r.root,
      episodes: r.episodes,
      messages: r.messages,
      steps: r.steps,
      meanReward: round(r.meanReward),
      agents: r.agents,
    })),
    episodes: s.episodes,
    messages: s.messages,
    agents: s.agents,
    steps: s.steps,
    searchable: s.searchableEpisodes,
    sources: (s.sources ?? []).map((x) => `${x.file} ${x.episodes}`),
  };
}

/** The same figures counted afresh from the episodes and rosters (the summary's queries before schema 12). */
function counted(db: Db): unknown {
  const runs = db
    .prepare<{ run_id: number; root: string; episodes: number; messages: number | null; count: number }>(
      `SELECT r.run_id, r.root, count(e.episode_id) AS episodes, sum(e.n_messages) AS messages,
        count(DISTINCT e.train_step) AS count, min(e.train_step) AS min, max(e.train_step) AS max, avg(e.outcome) AS mean
      FROM run r LEFT JOIN episode e ON e.run_id = r.run_id
      WHERE EXISTS (SELECT 1 FROM source s WHERE s.run_id = r.run_id AND s.format != 'other_file')
      GROUP BY r.run_id ORDER BY r.root`,
    )
    .all() as unknown as {
    run_id: number;
    root: string;
    episodes: number;
    messages: number | null;
    count: number;
    min: number | null;
    max: number | null;
    mean: number | null;
  }[];
  const agents = db.prepare<{ name: string; kind: string; episodes: number; messages: number | null }>(`
    SELECT a.name, a.kind, count(ea.episode_id) AS episodes, sum(ea.n_messages) AS messages
    FROM agent a LEFT JOIN episode_agent ea ON ea.agent_id = a.agent_id WHERE a.run_id = ? GROUP BY a.agent_id ORDER BY a.agent_id`);
  const number = (sql: string): number => db.prepare<{ n: number }>(sql).get()?.n ?? -1;
  return {
    runs: runs.map((r) => ({
      root: r.root,
      episodes: r.episodes,
      messages: r.messages ?? 0,
      steps: { count: r.count, min: r.min, max: r.max },
      meanReward: round(r.mean),
      agents: agents.all(r.run_id).map((a) => ({ ...a, messages: a.messages ?? 0 })),
    })),
    episodes: runs.reduce((sum, r) => sum + r.episodes, 0),
    messages: runs.reduce((sum, r) => sum + (r.messages ?? 0), 0),
    agents: number(
      'SELECT count(*) AS n FROM agent a WHERE EXISTS (SELECT 1 FROM episode_agent ea WHERE ea.agent_id = a.agent_id)',
    ),
    steps: number(
      'SELECT count(*) AS n FROM (SELECT DISTINCT run_id, train_step FROM episode WHERE train_step IS NOT NULL)',
    ),
    searchable: number(
      'SELECT count(*) AS n FROM episode WHERE episode_id NOT IN (SELECT episode_id FROM episode_unsearched)',
    ),
    sources: db
      .prepare<{ line: string }>(
        `SELECT s.uri || ' ' || (SELECT count(*) FROM episode e WHERE e.source_id = s.source_id) AS line FROM source s
        WHERE s.format NOT IN ('credit_lens_manifest', 'credit_lens_mapping', 'other_file') ORDER BY s.uri`,
      )
      .all()
      .map((r) => r.line),
  };
}

function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1e9) / 1e9;
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** Lines of `file` with new ids at training step `step`. */
function relabelled(file: string, step: number, tag: string): string {
  return lines(file)
    .slice(0, 3)
    .map((l, i) => `${JSON.stringify({ ...(JSON.parse(l) as object), id: `${tag}-${i}`, step })}\n`)
    .join('');
}

test('the summary totals equal a fresh count after a cold pass, appends, a rewrite and a deleted source', async () => {
  const { root, store, rollouts, files } = await indexedDemo();
  const check = (what: string): void => assert.deepEqual(summarised(store), counted(store.db), what);
  assert.ok(store.summary.summary().episodes > 0 && files.length >= 4, 'the demo has episodes in several files');
  check('cold pass');

  const last = join(rollouts, files.at(-1) ?? '');
  appendFileSync(last, relabelled(last, 999, 'appended'));
  await indexRunFolder(root, store);
  check('append (with a new step)');
  assert.equal(store.summary.summary().runs.find((r) => r.steps.max === 999)?.steps.max, 999);

  const rewritten = join(rollouts, files[1] ?? '');
  writeFileSync(rewritten, relabelled(rewritten, 500, 'rewritten'));
  await indexRunFolder(root, store);
  check('rewrite (file truncated and rewritten)');

  rmSync(join(rollouts, files[0] ?? ''));
  await indexRunFolder(root, store);
  check('deleted source');
  const team = store.summary.summary().runs.find((r) => r.steps.max === 999);
  assert.equal(team?.steps.count, files.length, 'one step gone, the appended and the rewritten one new');
});

test('the summary counts runs, steps and agents left empty as a fresh count does', async () => {
  const { root, store, rollouts, files } = await indexedDemo();
  for (const file of files) writeFileSync(join(rollouts, file), '');
  await indexRunFolder(root, store);
  assert.deepEqual(summarised(store), counted(store.db));
  const team = store.summary.summary().runs.find((r) => r.episodes === 0);
  assert.deepEqual(team?.steps, { count: 0, min: null, max: null });
  assert.equal(team?.meanReward, null);
});

test('migration 0012 back-fills the totals of an index written before it', async () => {
  const { store } = await indexedDemo();
  const before = summarised(store);
  revertTo11(store.db);
  migrate(store.db);
  // Migration 0019 leaves every episode to be searched again (a document per episode now).
  assert.deepEqual(summarised(store), { ...(before as object), searchable: 0 });
  assert.deepEqual(summarised(store), counted(store.db));
});
