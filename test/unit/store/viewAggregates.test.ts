import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Episode } from '../../../src/core/episode';
import type { SplitChoice } from '../../../src/core/split';
import { runCreditJob } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { DashboardViewService } from '../../../src/engine/views/dashboardViewService';
import type { RunOverview } from '../../../src/engine/views/viewTypes';
import { IndexStore } from '../../../src/store/indexStore';
import { splitKindOf, splitParam } from '../../../src/store/splitFilter';
import { CreditAggregates } from '../../../src/store/viewAggregates';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

// The aggregates of migration 0011 against the rows they summarise: the overview read from them
// equals the overview read from the rows (credit_view_state.fresh = 0 makes the views read the
// rows; a tolerance the aggregates do not keep makes the shared signal read them), after a full
// pass, a recomputation of some episodes, an appended file with a pass over the new episodes only,
// and a rewritten file (its episodes deleted).

const roster = ['planner', 'solver', 'verifier'].map((name) => ({ name, kind: 'llm' as const }));

/** Deterministic pseudo-random values in [0, 1). */
function values(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 16807) % 2147483647) / 2147483647;
}

/** Episodes with logged leave-one-out counterfactuals, some silent agents, some validation and some without step. */
function teamEpisodes(prefix: string, count: number, seed: number): Episode[] {
  const next = values(seed);
  return Array.from({ length: count }, (_, i) => {
    const silent = i % 5 === 0 ? 'verifier' : undefined;
    const speakers = roster.filter((a) => a.name !== silent);
    return episode(`${prefix}${String(i)}`, {
      ...(i % 11 === 3 ? {} : { step: 1 + (i % 6) }),
      ...(i % 7 === 2 ? { split: 'validation' } : {}),
      group: `g${String(i % 6)}`,
      sample: i,
      reward: i % 4 === 0 ? 0 : Math.round(next() * 100) / 100,
      agents: roster,
      messages: speakers.map((a) => ({
        agent: a.name,
        role: 'assistant' as const,
        content: `${a.name} says ${String(i)}`,
      })),
      counterfactuals: roster.map((a) => ({
        intervention: 'remove' as const,
        agents: [a.name],
        reward: i % 3 === 0 ? 0.005 : Math.round(next() * 100) / 100,
      })),
    });
  });
}

function overviews(db: IndexStore['db'], root: string, split: SplitChoice, epsilon: number) {
  const service = new DashboardViewService(db, root);
  const run = [...service.runs()].sort((a, b) => b.episodes - a.episodes)[0];
  assert.ok(run && run.episodes > 0);
  // The watermark is the index's largest episode id, not a figure of the overview.
  const strip = (o: RunOverview & { watermark?: number }): RunOverview => ({ ...o, watermark: undefined });
  return {
    loo: strip(service.overview(run.runId, 'loo', epsilon, split)),
    shared: strip(service.overview(run.runId, 'shared', epsilon, split)),
    delta: service.overviewDelta(run.runId, 'loo', epsilon, 0, split).columns,
    runId: run.runId,
  };
}

/** Every number of the overview from the aggregates equals the one from the rows (up to rounding of the sums). */
function assertSameAsRows(dbPath: string, root: string): void {
  const store = IndexStore.open(dbPath);
  try {
    for (const split of ['train', 'validation', 'all'] as const) {
      const aggregated = overviews(store.db, root, split, 0.01);
      assert.equal(aggregated.loo.status, 'computed');
      const state = store.db.prepare<{ fresh: number }>('SELECT fresh FROM credit_view_state').all();
      assert.ok(state.length > 0 && state.every((s) => s.fresh === 1), JSON.stringify(state));
      store.db.exec('UPDATE credit_view_state SET fresh = 0');
      const fromRows = overviews(store.db, root, split, 0.01);
      store.db.exec('UPDATE credit_view_state SET fresh = 1');
      const steps = stepsFromRows(store.db, aggregated.runId, split);
      assertClose(
        { steps: aggregated.loo.steps, episodes: aggregated.loo.episodes, teamReward: aggregated.loo.teamReward },
        steps,
        `steps ${split}`,
      );
      assertClose(aggregated.loo, fromRows.loo, `loo ${split}`);
      assertClose(aggregated.delta, fromRows.delta, `delta ${split}`);
      // The shared signal from the rows: at a tolerance the aggregates do not keep, the same idle counts here.
      // A page's total without filters (from step_total) is the count of the run's episodes in the split.
      const service = new DashboardViewService(store.db, root);
      const page = (filter: { split: SplitChoice; rewardMin?: number }) =>
        service.episodes({
          runId: aggregated.runId,
          filter,
          sort: { key: 'messages', descending: true },
          offset: 0,
          limit: 5,
        });
      assert.equal(
        page({ split }).total,
        page({ split, rewardMin: -1e9 }).total + unrewarded(store.db, aggregated.runId, split),
      );
      const sharedRows = overviews(store.db, root, split, 0.0100000001).shared;
      assertClose(aggregated.shared, { ...sharedRows, epsilon: 0.01 }, `shared ${split}`);
    }
  } finally {
    store.close();
  }
}

/** Episodes of the run in the split that log no team reward (a reward filter leaves them out). */
function unrewarded(db: IndexStore['db'], runId: number, split: SplitChoice): number {
  return (
    db
      .prepare<{ n: number }>(
        `SELECT count(*) AS n FROM episode e WHERE run_id = ? AND outcome IS NULL AND instr(?, ${splitKindOf('e')}) > 0`,
      )
      .get(runId, splitParam(split))?.n ?? -1
  );
}

/** The run's steps, episodes and mean team reward, grouped over its episode rows. */
function stepsFromRows(db: IndexStore['db'], runId: number, split: SplitChoice) {
  const rows = db
    .prepare<{ step: number; n: number; mean: number | null }>(
      `SELECT train_step AS step, count(*) AS n, avg(outcome) AS mean FROM episode e
       WHERE run_id = ? AND train_step IS NOT NULL AND instr(?, ${splitKindOf('e')}) > 0 GROUP BY 1 ORDER BY 1`,
    )
    .all(runId, splitParam(split));
  return { steps: rows.map((r) => r.step), episodes: rows.map((r) => r.n), teamReward: rows.map((r) => r.mean) };
}

function assertClose(actual: unknown, expected: unknown, where: string): void {
  const round = (v: unknown): unknown =>
    typeof v === 'number'
      ? Math.round(v * 1e9) / 1e9
      : Array.isArray(v)
        ? v.map(round)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round(x)]))
          : v;
  assert.deepEqual(round(actual), round(expected), where);
}

/** A run folder of team files (name → episodes), indexed, with a LOO pass over both splits. */
async function creditedFolder(files: Record<string, Episode[]>): Promise<{ root: string; dbPath: string }> {
  const root = tempFolder();
  const dbPath = join(root, 'index.sqlite');
  mkdirSync(join(root, 'team'));
  for (const [name, episodes] of Object.entries(files)) writeFileSync(join(root, 'team', name), jsonl(...episodes));
  await runIndexJob({ root, dbPath });
  await runCreditJob({ root, dbPath, method: 'loo', split: 'all' });
  return { root, dbPath };
}

test('the overview from the aggregates equals the one from the rows through passes, appends and rewrites', async () => {
  const { root, dbPath } = await creditedFolder({
    'a.jsonl': teamEpisodes('a', 80, 7),
    'b.jsonl': teamEpisodes('b', 40, 11),
  });
  try {
    assertSameAsRows(dbPath, root);

    // A recomputation of some episodes (their rows replaced) keeps the aggregates current.
    await runCreditJob({ root, dbPath, method: 'loo', episodes: [3, 4, 50] });
    assertSameAsRows(dbPath, root);

    // Appended episodes, then a pass over a step range only.
    appendFileSync(join(root, 'team', 'a.jsonl'), jsonl(...teamEpisodes('c', 30, 13)));
    await runIndexJob({ root, dbPath });
    await runCreditJob({ root, dbPath, method: 'loo', steps: [2, 3] });
    assertSameAsRows(dbPath, root);

    // A rewritten file: its episodes are deleted (with their credit) and the aggregates go stale…
    writeFileSync(join(root, 'team', 'b.jsonl'), jsonl(...teamEpisodes('d', 25, 17)));
    await runIndexJob({ root, dbPath });
    const store = IndexStore.open(dbPath);
    const fresh = store.db.prepare<{ fresh: number }>('SELECT fresh FROM credit_view_state').all();
    store.close();
    assert.ok(fresh.some((s) => s.fresh === 0));
    // …until a pass, even over a few episodes, rebuilds them whole.
    await runCreditJob({ root, dbPath, method: 'loo', episodes: [1] });
    assertSameAsRows(dbPath, root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** A credited run of 12 episodes with current aggregates: `check` gets them and the run's id. */
async function withCurrentAggregates(
  check: (aggregates: CreditAggregates, runId: number) => Promise<void>,
): Promise<void> {
  const { root, dbPath } = await creditedFolder({ 'a.jsonl': teamEpisodes('a', 12, 5) });
  try {
    const store = IndexStore.open(dbPath);
    try {
      const aggregates = new CreditAggregates(store.db);
      const runId = store.db.prepare<{ id: number }>('SELECT run_id AS id FROM run ORDER BY run_id').get()?.id ?? 0;
      assert.equal(aggregates.fresh(runId), true, 'current after the pass');
      await check(aggregates, runId);
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a pass runs with the aggregates marked stale, started before the mark, and one that fails leaves them stale', async () => {
  await withCurrentAggregates(async (aggregates, runId) => {
    // What the pass does before it first waits runs before the mark (a credit pass that writes in
    // a worker takes the mark there); once it waits, the mark is written.
    const seen: boolean[] = [];
    const result = await aggregates.around(
      runId,
      { kind: 'all' },
      async () => {
        seen.push(aggregates.fresh(runId));
        await Promise.resolve();
        seen.push(aggregates.fresh(runId));
        return 'done';
      },
      () => 'no-such-hash',
      () => false,
    );
    assert.equal(result, 'done');
    assert.deepEqual(seen, [true, false], 'stale from the pass’s first wait on');
    assert.equal(aggregates.fresh(runId), true, 'a pass that wrote nothing leaves current aggregates current');
    // A pass that fails at once (before the mark is written) fails the call, and the aggregates stay stale.
    await assert.rejects(
      aggregates.around(
        runId,
        { kind: 'all' },
        () => Promise.reject(new Error('refused')),
        () => '',
      ),
      /refused/,
    );
    assert.equal(aggregates.fresh(runId), false, 'stale after a failed pass');
  });
});

test('a pass that takes the stale mark writes it itself; one taken after the mark was written gets nothing', async () => {
  await withCurrentAggregates(async (aggregates, runId) => {
    // Taken before the pass first waits: `around` leaves the mark to the pass, which then fails.
    const taken: (number | undefined)[] = [];
    await assert.rejects(
      aggregates.around(
        runId,
        { kind: 'all' },
        async (mark) => {
          taken.push(mark.take());
          await Promise.resolve();
          throw new Error('failed before writing');
        },
        () => 'no-such-hash',
      ),
      /failed before writing/,
    );
    assert.deepEqual(taken, [runId]);
    assert.equal(aggregates.fresh(runId), true, 'the pass wrote neither the mark nor a row: current');
    // Taken after its first wait, the mark is already written: nothing to take.
    const late: (number | undefined)[] = [];
    await aggregates.around(
      runId,
      { kind: 'all' },
      async (mark) => {
        await Promise.resolve();
        late.push(mark.take());
        assert.equal(aggregates.fresh(runId), false, 'marked by around');
        return 'done';
      },
      () => 'no-such-hash',
      () => false,
    );
    assert.deepEqual(late, [undefined]);
  });
});
