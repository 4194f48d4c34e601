import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findIndexLocation } from '../../../src/engine/indexLocation';
import { CompareRepository } from '../../../src/store/compareRepository';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';
import { creditedEpisode, indexWithCredit, writeRun } from '../engine/compare/compareRuns';

async function indexed(): Promise<{ store: IndexStore; repo: CompareRepository; runId: number; hash: string }> {
  const root = tempFolder();
  writeRun(root, 'run', [
    creditedEpisode('s1', 0.25, { step: 1, task: 't1', group: 'g1', sample: 0 }),
    creditedEpisode('s2', 0.5, { step: 2, task: 't2', group: 'g2', sample: 1 }),
    creditedEpisode('s3', 0.75, { step: 3, task: 't3' }),
    creditedEpisode('nostep', 0.1, { step: undefined, task: 't4' }),
    creditedEpisode('val', 0.9, { step: 2, task: 't5', split: 'validation' }),
    // No removal of the planner is logged: LOO cannot be computed without an evaluator.
    creditedEpisode('missing', 0, { step: 2, task: 't6', counterfactuals: [] }),
  ]);
  await indexWithCredit(root);
  const location = findIndexLocation(root);
  assert.ok(location);
  const store = IndexStore.open(location.path);
  const runId = (store.db.prepare("SELECT run_id AS id FROM run WHERE name = 'run'").get() as { id: number }).id;
  const hash = (
    store.db.prepare("SELECT params_hash AS h FROM credit WHERE method = 'loo' LIMIT 1").get() as { h: string }
  ).h;
  return { store, repo: new CompareRepository(store.db), runId, hash };
}

describe('CompareRepository', () => {
  it('episodes(scope) reads the training episodes with their pairing keys, in id order, within the steps', async () => {
    const { store, repo, runId } = await indexed();
    try {
      const all = repo.episodes({ runId });
      assert.deepEqual(
        all.map((e) => [e.externalId, e.task, e.group, e.sample, e.step]),
        [
          ['s1', 't1', 'g1', 0, 1],
          ['s2', 't2', 'g2', 1, 2],
          ['s3', 't3', 'g1', 0, 3],
          ['nostep', 't4', 'g1', 0, null],
          ['missing', 't6', 'g1', 0, 2],
        ],
        'the validation episode is left out',
      );
      assert.ok(all.every((e) => e.uri === 'run/rollouts.jsonl' && e.format === 'credit_lens_jsonl' && e.length > 0));
      assert.deepEqual(
        repo.episodes({ runId, steps: { from: 2, to: 3 } }).map((e) => e.externalId),
        ['s2', 's3', 'missing'],
      );
      assert.deepEqual(
        repo.episodes({ runId, steps: { from: -Infinity, to: 1 } }).map((e) => e.externalId),
        ['s1', 'nostep'],
        'an open range, and no step counts as 0',
      );
      assert.deepEqual(repo.episodes({ runId: runId + 99 }), []);
    } finally {
      store.close();
    }
  });

  it('credit(scope) reads the stored agent-level values with status and source; failures() counts the rest', async () => {
    const { store, repo, runId, hash } = await indexed();
    try {
      const rows = repo.credit({ runId, steps: { from: 1, to: 2 } }, 'loo', hash);
      const planner = rows.filter((r) => r.agent === 'planner').map((r) => r.value);
      assert.deepEqual(planner.sort(), [0.25, 0.5]);
      assert.ok(rows.every((r) => r.status === 'exact' && r.source === 'logged'));
      assert.deepEqual(repo.credit({ runId }, 'loo', 'other-hash'), []);
      const failures = repo.failures({ runId }, 'loo', hash);
      assert.equal(failures.length, 1);
      assert.equal(failures[0]?.episodes, 1);
      assert.equal(failures[0]?.status, 'not-identifiable');
      assert.ok((failures[0]?.reason ?? '') !== '');
      assert.deepEqual(repo.methods(runId), ['loo']);
      assert.deepEqual(repo.methods(runId + 99), []);
    } finally {
      store.close();
    }
  });
});
