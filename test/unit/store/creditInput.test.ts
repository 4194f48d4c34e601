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

test("episodeCounts() counts the split's episodes and every kind's in one read, as episodes() yields them", async () => {
  const { store } = await indexedDemo();
  const input = new CreditInputRepository(store.db);
  const team = input.runs().find((r) => r.name === 'planner-solver-verifier');
  assert.ok(team);
  // Held-out episodes under names of any case (core/split.ts), and one with no split at all (train).
  store.db
    .exec(`UPDATE episode SET split = CASE episode_id % 5 WHEN 0 THEN 'VAL' WHEN 1 THEN 'validation' WHEN 2 THEN NULL
    ELSE split END WHERE run_id = ${String(team.runId)}`);
  const yielded = (from: number, to: number, split: 'train' | 'validation' | 'all'): number =>
    [...input.episodes(team.runId, from, to, 50, undefined, split)].length;
  for (const [from, to] of [
    [-Infinity, Infinity],
    [3, 7],
  ] as const) {
    const every = yielded(from, to, 'all');
    const train = yielded(from, to, 'train');
    const validation = yielded(from, to, 'validation');
    assert.ok(
      train > 0 && validation > 0 && train + validation === every,
      `${String(from)}..${String(to)}: both kinds`,
    );
    assert.deepEqual(input.episodeCounts(team.runId, from, to, 'train'), { inSplit: train, everyKind: every });
    assert.deepEqual(input.episodeCounts(team.runId, from, to, 'validation'), {
      inSplit: validation,
      everyKind: every,
    });
    assert.deepEqual(input.episodeCounts(team.runId, from, to, 'all'), { inSplit: every, everyKind: every });
    assert.equal(input.countEpisodes(team.runId, from, to, undefined, 'validation'), validation);
  }
  store.close();
});
