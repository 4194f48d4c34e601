import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CreditInputRepository } from '../../../src/store/creditInputRepository';
import { EpisodeViewRepository } from '../../../src/store/episodeViewRepository';
import { indexedDemo } from './demoIndex';

// The credit pass reads its episodes as column values (Statement.allValues) and parses message
// authors only when asked: what it assembles must be what the index holds.

test('episodes() assembles each episode from its stored rows: roster, logged values, counterfactuals and message authors', async () => {
  const { store } = await indexedDemo();
  const input = new CreditInputRepository(store.db);
  const view = new EpisodeViewRepository(store.db);
  const team = input.runs().find((r) => r.name === 'planner-solver-verifier');
  assert.ok(team);
  const episodes = [...input.episodes(team.runId, -Infinity, Infinity, 50)]; // pages of 50: ids cross pages
  assert.equal(episodes.length, input.countEpisodes(team.runId));
  for (const e of episodes) {
    const stored = store.db
      .prepare<{ external_id: string; outcome: number | null; train_step: number | null }>(
        'SELECT external_id, outcome, train_step FROM episode WHERE episode_id = ?',
      )
      .get(e.episodeId);
    assert.deepEqual([e.externalId, e.reward, e.step], [stored?.external_id, stored?.outcome, stored?.train_step]);
    assert.deepEqual(
      e.agents.map((a) => a.name),
      ['planner', 'solver', 'verifier'],
    );
    assert.deepEqual(e.messageAuthors, view.messageAuthors(e.episodeId));
    const removals = store.db
      .prepare<{ n: number }>("SELECT count(*) AS n FROM counterfactual WHERE episode_id = ? AND source = 'logged'")
      .get(e.episodeId);
    assert.equal(e.loggedCounterfactuals.length, removals?.n);
    // v(N) is the logged team reward; v(N∖{i}) the logged removal of agent i.
    assert.equal(e.loggedCoalitions.get(0b111n), e.reward);
    for (const cf of e.loggedCounterfactuals)
      if (cf.intervention === 'remove') assert.equal(e.loggedCoalitions.get(0b111n & ~cf.removed), cf.value);
  }
  assert.ok(episodes.some((e) => e.loggedCounterfactuals.length === 3));
  store.close();
});
