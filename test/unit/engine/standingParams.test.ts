import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeDemoRun } from '../../../src/demo/writeDemoRun';
import { runCreditJob, type CreditJobOptions } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { DashboardRepository } from '../../../src/store/dashboardRepository';
import { withLatestParams } from '../../../src/store/exportRepository';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';

// The parameter set the dashboard, the exports and the tools read for a method: a recompute of one
// episode under other parameters (the Episode view's) is the newest credit, but must not stand for the run.

test('latestParams() keeps the whole-run set over a newer one-episode recompute, and takes a newer whole-run set', async () => {
  const root = tempFolder();
  writeDemoRun(root, { episodes: 256, groupsPerStep: 8, routed: false, creditRun: false });
  await runIndexJob({ root, search: false });
  const run = 'planner-solver-verifier';
  const pass = async (options: Partial<CreditJobOptions>): Promise<string> => {
    const result = await runCreditJob({ root, method: 'loo', run, ...options });
    const hash = result.runs[0]?.params.hash;
    assert.ok(hash);
    return hash;
  };
  const standing = (): string | undefined => {
    const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
    try {
      const runId = store.db.prepare<{ id: number }>('SELECT run_id AS id FROM run WHERE name = ?').get(run)?.id ?? -1;
      const dashboard = new DashboardRepository(store.db).latestParams(runId, 'loo');
      // The exports and shard summaries choose by the same rule (exportRepository.withLatestParams).
      const exported = store.db
        .prepare<{ hash: string }>(
          `${withLatestParams('main')} SELECT params_hash AS hash FROM latest WHERE run_id = ? AND method = 'loo'`,
        )
        .get(runId)?.hash;
      assert.equal(exported, dashboard);
      return dashboard;
    } finally {
      store.close();
    }
  };
  const whole = await pass({});
  assert.equal(standing(), whole);
  const one = await pass({ episodes: [1], advantage: 'dr-grpo' });
  assert.notEqual(one, whole);
  assert.equal(standing(), whole, 'one recomputed episode does not take the run over');
  const again = await pass({ advantage: 'dr-grpo' });
  assert.equal(again, one, 'the same parameters: the same set');
  assert.equal(standing(), again, 'a whole-run pass of the newer set covers as much: the newest stands');
});
