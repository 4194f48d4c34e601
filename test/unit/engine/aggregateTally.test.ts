import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Episode } from '../../../src/core/episode';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runCreditJob, type CreditJobOptions } from '../../../src/engine/credit/creditJob';
import { creditForRun } from '../../../src/engine/credit/runCredit';
import { runIndexJob } from '../../../src/engine/indexJob';
import { CreditInputRepository } from '../../../src/store/creditInputRepository';
import { IndexStore } from '../../../src/store/indexStore';
import { CreditAggregates, type CoverageCell, type CreditStepCell } from '../../../src/store/viewAggregates';
import { e16Sample } from '../../builders/e16Episodes';
import { jsonl, tempFolder } from '../../builders/episodeBuilder';
import { runContextFor } from '../../builders/runContext';

// The dashboard's aggregates a first whole credit pass tallies as it goes (aggregateTally.ts) must
// be those the rebuild from its stored rows (CreditAggregates.rebuild) gives: cell by cell, counts
// exactly and sums to the last bits.

const indexPath = (root: string): string => join(root, '.credit-lens', 'index.sqlite');

interface StoredCells {
  readonly credit: CreditStepCell[];
  readonly coverage: CoverageCell[];
}

/** The aggregates stored for a run, in key order. */
function storedCells(store: IndexStore, runId: number): StoredCells {
  const credit = store.db
    .prepare<CreditStepCell>(
      `SELECT method, epsilon, split_kind AS splitKind, train_step AS step, agent_id AS agentId, total, n, spoke, idle
       FROM credit_step_agent WHERE run_id = ? ORDER BY method, params_hash, epsilon, split_kind, train_step, agent_id`,
    )
    .all(runId);
  const coverage = store.db
    .prepare<CoverageCell>(
      `SELECT method, split_kind AS splitKind, train_step AS step, drawn, approximate, unidentified, failed
       FROM credit_step_coverage WHERE run_id = ? ORDER BY method, params_hash, split_kind, train_step`,
    )
    .all(runId);
  return { credit, coverage };
}

/** The same cells, sums compared to 1e-12 (they are added in another order) and everything else exactly. */
function assertSameCells(actual: StoredCells, expected: StoredCells, what: string): void {
  assert.deepEqual(actual.coverage, expected.coverage, `${what}: coverage`);
  assert.equal(actual.credit.length, expected.credit.length, `${what}: credit cells`);
  actual.credit.forEach((cell, k) => {
    const want = expected.credit[k];
    assert.ok(want);
    assert.deepEqual({ ...cell, total: 0 }, { ...want, total: 0 }, `${what}: cell ${k}`);
    assert.ok(
      Math.abs(cell.total - want.total) <= 1e-12 * Math.max(1, Math.abs(want.total)),
      `${what}: sum of cell ${k}`,
    );
  });
}

/** What the rebuild from the stored rows gives for every parameter set of the run (it replaces what is stored). */
function rebuiltCells(store: IndexStore, runId: number): StoredCells {
  const aggregates = new CreditAggregates(store.db);
  const sets = store.db
    .prepare<{ method: string; hash: string }>(
      `SELECT method, params_hash AS hash FROM credit WHERE run_id = :run
       UNION SELECT method, params_hash FROM credit_error WHERE run_id = :run`,
    )
    .all({ run: runId });
  for (const set of sets) aggregates.rebuild(runId, set.method, set.hash, { kind: 'all' });
  return storedCells(store, runId);
}

/** Runs the job, then compares what it stored with the rebuild of the same rows. */
async function jobAgainstRebuild(
  root: string,
  run: string,
  options: Omit<CreditJobOptions, 'root'>,
): Promise<StoredCells> {
  await runCreditJob({ root, run, ...options });
  const store = IndexStore.open(indexPath(root));
  try {
    const runId = new CreditInputRepository(store.db).runs().find((r) => r.name === run || run === '')?.runId;
    assert.ok(runId !== undefined);
    const stored = storedCells(store, runId);
    const rebuilt = rebuiltCells(store, runId);
    assertSameCells(stored, rebuilt, `${options.method} ${run}`);
    return stored;
  } finally {
    store.close();
  }
}

/**
 * Every case the rebuild tells apart: graded values, a credit within the tolerances (0.005), a
 * silent agent (no message: not `spoke`), an ungrouped and an unstepped episode, a failed one (no
 * removal logged, no evaluator: not identifiable), approximate credit (a removal not replayed in a
 * pipeline) and validation episodes.
 */
function edges(): Episode[] {
  const unreplayed = { intervention: 'remove', agents: ['planner'], reward: 0, replayed: false } as const;
  const solverOnly = [{ agent: 'solver', turn: 0, role: 'assistant', content: '4 #### 4', tokenCount: 4 }] as const;
  return [
    ...[1, 0, 0.75, 0.5].map((r, k) => e16Sample(`g1-${String(k)}`, 1, 'g1', r, r / 3, r * 0.4)),
    e16Sample('near-zero', 1, 'g1', 0.5, 0.495, 0.2),
    e16Sample('silent-planner', 1, 'g1', 1, 1, 0.25, { messages: [...solverOnly] }),
    e16Sample('alone', 2, undefined, 1, 0, 1),
    e16Sample('failed', 2, 'g2', 0, 0, 0, { counterfactuals: [] }),
    e16Sample('approx', 2, 'g2', 1, 0, 0, {
      counterfactuals: [unreplayed, { intervention: 'remove', agents: ['solver'], reward: 1, replayed: true }],
    }),
    e16Sample('unstepped', 0, 'g3', 1, 0.2, 0.6, { step: undefined }),
    ...[0.3, 0.9].map((r, k) => e16Sample(`held-out-${String(k)}`, 2, 'v1', r, r / 2, 0, { split: 'validation' })),
  ];
}

async function edgesIndex(): Promise<string> {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(...edges()));
  await runIndexJob({ root, search: false });
  return root;
}

describe('the dashboard aggregates tallied by a whole credit pass', () => {
  it('the pass hands over its tallied cells, and they are what the rebuild reads from its rows', async () => {
    const root = await edgesIndex();
    const store = IndexStore.open(indexPath(root));
    try {
      const input = new CreditInputRepository(store.db);
      const run = input.runs()[0];
      assert.ok(run);
      const { aggregates } = await creditForRun(run, runContextFor(store, { root, method: 'loo', split: 'all' }));
      assert.ok(aggregates, 'a first whole pass tallies its aggregates');
      const byKey = <T extends object>(cells: readonly T[], key: (c: T) => string): T[] =>
        [...cells].sort((a, b) => key(a).localeCompare(key(b)));
      const creditKey = (c: CreditStepCell): string => `${c.method} ${c.epsilon} ${c.splitKind} ${c.step} ${c.agentId}`;
      const coverageKey = (c: CoverageCell): string => `${c.method} ${c.splitKind} ${String(c.step)}`;
      const rebuilt = rebuiltCells(store, run.runId);
      assertSameCells(
        { credit: byKey(aggregates.credit, creditKey), coverage: byKey(aggregates.coverage, coverageKey) },
        { credit: byKey(rebuilt.credit, creditKey), coverage: byKey(rebuilt.coverage, coverageKey) },
        'tallied',
      );
      // The cases are there: idle at both tolerances, a silent agent, every coverage count.
      const at = (epsilon: number) => rebuilt.credit.filter((c) => c.epsilon === epsilon);
      assert.ok(at(0.01).some((c) => c.idle > 0) && at(0.01).some((c) => c.spoke < c.n), 'idle and silent cells');
      const sum = (k: 'drawn' | 'approximate' | 'unidentified') => rebuilt.coverage.reduce((s, c) => s + c[k], 0);
      assert.deepEqual([sum('drawn'), sum('approximate'), sum('unidentified')], [11, 1, 1]);
      assert.ok(
        rebuilt.coverage.some((c) => c.step === null) && rebuilt.coverage.some((c) => c.splitKind === 'validation'),
      );
    } finally {
      store.close();
    }
  });

  it('the job stores them: loo and shapley over both splits, then a second parameter set beside the first', async () => {
    const root = await edgesIndex();
    await jobAgainstRebuild(root, '', { method: 'loo', split: 'all' });
    const both = await jobAgainstRebuild(root, '', { method: 'shapley', split: 'all' });
    assert.deepEqual([...new Set(both.coverage.map((c) => c.method))], ['loo', 'shapley']);
  });

  it('a routing pass (three methods under one parameter set) and a pass over some steps, on the demo', async () => {
    const root = tempFolder();
    writeDemoRun(root, { episodes: 640, creditRun: false });
    await runIndexJob({ root, search: false });
    const routed = await jobAgainstRebuild(root, 'routed-experts', { method: 'routing' });
    assert.deepEqual([...new Set(routed.credit.map((c) => c.method))].sort(), ['routing', 'routing-ipw', 'wta']);
    const some = await jobAgainstRebuild(root, 'planner-solver-verifier', { method: 'loo', steps: [3, 6] });
    assert.deepEqual([...new Set(some.credit.map((c) => c.step))], [3, 4, 5, 6]);
  });
});
