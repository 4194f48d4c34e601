import assert from 'node:assert/strict';
import { test } from 'node:test';
import { teamRunName } from '../../../../src/demo/teamEpisodes';
import { InfluenceService } from '../../../../src/engine/influence/influenceService';
import { indexedDemo } from '../../store/demoIndex';

// The demo's 240 team episodes span 8 steps of 32 (the last has 16); the verifier stops catching errors after reference
// step 28 (learningCurves.ts), i.e. from step 7 on, and its messages are drawn on only when it corrects.

test('the demo index: the late verifier has no influence, the early one moves the outcome', async () => {
  const { store } = await indexedDemo();
  const db = store.db;
  const run = db.prepare<{ run_id: number }>('SELECT run_id FROM run WHERE name = ?').get(teamRunName);
  assert.ok(run);
  const service = new InfluenceService(db);
  const late = await service.run(run.run_id, 7, 8);
  assert.equal(late.episodes, 48); // 32 at step 7, the last 16 at step 8
  assert.equal(late.agents.find((a) => a.name === 'verifier')?.noInfluence, true);
  assert.ok(late.edges.every((e) => e.from !== 'verifier' || Math.abs(e.value) < 1e-12));
  assert.ok(late.edges.some((e) => e.from === 'verifier' && e.to === null && e.kind === 'counterfactual'));
  assert.equal(late.agents.find((a) => a.name === 'solver')?.noInfluence, false);
  assert.equal(late.missing, null);

  const early = await service.run(run.run_id, 1, 2);
  const verifierEffect = early.edges.find((e) => e.from === 'verifier' && e.to === null);
  assert.ok(verifierEffect && verifierEffect.value > 0.05, JSON.stringify(verifierEffect));
  assert.equal(early.agents.find((a) => a.name === 'verifier')?.noInfluence, false);

  const lastEpisode = db
    .prepare<{ episode_id: number }>(
      'SELECT episode_id FROM episode WHERE run_id = ? ORDER BY train_step DESC, episode_id DESC LIMIT 1',
    )
    .get(run.run_id);
  assert.ok(lastEpisode);
  const one = await service.episode(lastEpisode.episode_id);
  assert.equal(one?.agents.find((a) => a.name === 'verifier')?.noInfluence, true);
  const logged = one?.edges.filter((e) => e.kind === 'logged').map((e) => `${e.from}→${e.to ?? ''}`);
  assert.deepEqual(logged, ['planner→solver', 'solver→verifier']);
});
