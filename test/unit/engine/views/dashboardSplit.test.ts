import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { DashboardViewService } from '../../../../src/engine/views/dashboardViewService';
import { IndexStore } from '../../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';

const roster = [{ name: 'policy', kind: 'llm' as const }];
const say = (content: string): Episode['messages'][number] => ({ agent: 'policy', role: 'assistant', content });

/** A run with training episodes at steps 1 and 2 and verl-style validation episodes at step 0 (and 2). */
async function splitRun(): Promise<{ service: DashboardViewService; store: IndexStore; runId: number }> {
  const root = tempFolder('credit-lens-split-');
  mkdirSync(join(root, 'run'));
  writeFileSync(join(root, 'run', 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'run' }));
  const train = (id: string, step: number, reward: number): Episode =>
    episode(id, { step, group: `g${step}`, reward, agents: roster, messages: [say(id)] });
  const validation = (id: string, step: number, reward: number): Episode => ({
    ...episode(id, { step, group: `v${step}`, reward, agents: roster, messages: [say(id)] }),
    split: 'validation',
  });
  writeFileSync(
    join(root, 'run', 'a.jsonl'),
    jsonl(
      validation('v0a', 0, 0),
      validation('v0b', 0, 0),
      validation('v0c', 0, 0),
      train('t1a', 1, 1),
      train('t1b', 1, 0),
      train('t2a', 2, 1),
      validation('v2a', 2, 0),
    ),
  );
  const { index } = await runIndexJob({ root });
  const store = IndexStore.open(index.path);
  const runId = store.db.prepare<{ run_id: number }>("SELECT run_id FROM run WHERE name = 'run'").get()?.run_id ?? -1;
  return { service: new DashboardViewService(store.db, root), store, runId };
}

test('the Run Dashboard shows the training split by default: validation steps, counts and rewards are left out', async () => {
  const { service, store, runId } = await splitRun();
  const o = service.overview(runId, 'shared', 0.02);
  assert.deepEqual(
    [o.steps, o.episodes, o.teamReward],
    [
      [1, 2],
      [2, 1],
      [0.5, 1],
    ],
  );
  assert.equal(o.coverage.episodes, 3);
  assert.equal(o.coverage.drawn, 3);
  const page = service.episodes({ runId, filter: {}, sort: { key: 'step', descending: false }, offset: 0, limit: 50 });
  assert.deepEqual([page.total, page.rows.map((r) => r.externalId)], [3, ['t1a', 't1b', 't2a']]);
  const all = service.overview(runId, 'shared', 0.02, 'all');
  assert.deepEqual([all.steps, all.episodes, all.coverage.episodes], [[0, 1, 2], [3, 2, 2], 7]);
  const validation = service.overview(runId, 'shared', 0.02, 'validation');
  assert.deepEqual(
    [validation.steps, validation.episodes, validation.teamReward],
    [
      [0, 2],
      [3, 1],
      [0, 0],
    ],
  );
  store.close();
});
