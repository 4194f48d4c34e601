import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { InfluenceRepository } from '../../../src/store/influenceRepository';
import { migrate, migrations } from '../../../src/store/migrate';
import { influence0017 } from '../../../src/store/migrations/0017_influence';
import { indexedDemo } from './demoIndex';

// Migration 0021 keeps an episode's logged influence edges in one row: what the reader answers must
// be what the trace's connections say, in their order, whether written so or moved over from 0017.

test("the logged edges of an episode come back as the trace's connections, in order", async () => {
  const { store, rollouts, files } = await indexedDemo();
  const edges = new InfluenceRepository(store.db).edgesBetween(1, 3);
  const first = edges.get(1) ?? [];
  assert.ok(first.length > 0, 'the demo logs weights on its messages');
  // What the trace's first line says: each message's connections to earlier messages, with weights.
  const line = JSON.parse(readFileSync(join(rollouts, files[0] ?? ''), 'utf8').split('\n')[0] ?? '') as {
    messages: { agent: string; connections?: number[]; weights?: number[] }[];
  };
  const logged = line.messages.flatMap((m, to) =>
    (m.connections ?? []).map((from, k) => [line.messages[from]?.agent, m.agent, from, to, m.weights?.[k]]),
  );
  assert.deepEqual(
    first.map((e) => [e.fromAgent, e.toAgent, e.fromSeq, e.toSeq, e.weight]),
    logged,
  );
  assert.deepEqual(
    first.map((e) => [e.fromAgent, e.toAgent, e.fromSeq, e.toSeq, e.kind, e.provenance]),
    first.map((e) => [e.fromAgent, e.toAgent, e.fromSeq, e.toSeq, 'logged', `messages[${String(e.toSeq)}].weights`]),
  );
  // Each connection points back in time, from an agent of the roster.
  for (const e of first)
    assert.ok((e.fromSeq ?? 0) < (e.toSeq ?? 0) && ['planner', 'solver', 'verifier'].includes(e.fromAgent));
  store.close();
});

test('migration 0021 moves the per-edge rows of 0017 into one row per episode, in edge order', async () => {
  const { store } = await indexedDemo();
  const db = store.db;
  const before = new InfluenceRepository(db).edgesBetween(1, 1e9);
  // Back to schema 20: the edges as 0017 stored them, one row each, the first episode's in reverse id order.
  db.exec(`DROP TABLE episode_influence; ${influence0017}`);
  const insert = db.prepare(
    'INSERT INTO influence_edge (edge_id, episode_id, src_agent_id, dst_agent_id, src_seq, dst_seq, kind, weight, provenance) VALUES (?, ?, (SELECT agent_id FROM agent WHERE name = ? AND run_id = (SELECT run_id FROM episode WHERE episode_id = ?)), (SELECT agent_id FROM agent WHERE name = ? AND run_id = (SELECT run_id FROM episode WHERE episode_id = ?)), ?, ?, ?, ?, ?)',
  );
  let id = 1_000_000;
  for (const [episodeId, edges] of before)
    for (const e of edges)
      insert.run(
        id--,
        episodeId,
        e.fromAgent,
        episodeId,
        e.toAgent,
        episodeId,
        e.fromSeq,
        e.toSeq,
        e.kind,
        e.weight,
        e.provenance,
      );
  // Only 0021 runs: the later migrations already hold on this database.
  db.pragma('user_version = 20');
  assert.equal(migrate(db, migrations.slice(0, 21)), 21);
  const after = new InfluenceRepository(db).edgesBetween(1, 1e9);
  assert.equal(after.size, before.size);
  // Edge ids were given in descending order, so the moved edges come back reversed within each episode.
  for (const [episodeId, edges] of before) assert.deepEqual(after.get(episodeId), [...edges].reverse());
  store.close();
});
