import assert from 'node:assert/strict';
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { InfluenceService } from '../../../../src/engine/influence/influenceService';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { resolveIndexLocation } from '../../../../src/engine/indexLocation';
import { openDatabase, type Db } from '../../../../src/store/database';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';

// A dashboard's influence aggregate kept across index revisions (credit-methods.md §3.17, "Aggregate"):
// after appends it reads only the new episodes, after a rewrite or a removal it reads the range again;
// either way it equals the graph a fresh service reads from the start.

const agents = ['a', 'b', 'c'].map((name) => ({ name, kind: 'llm' as const }));

/** Episode `k` at `step`: b reads a (logged weight k/4), c speaks last; v(S) differs per episode so means move. */
function teamEpisode(k: number, step: number, tag = ''): Episode {
  const weight = { a: 0.5 + (k % 8) / 8, b: 0.25, c: k % 3 === 0 ? 0 : 0.125 };
  const coalitions = [0, 1, 2, 3, 4, 5, 6, 7].map((mask) => {
    const members = agents.filter((_, i) => (mask & (1 << i)) !== 0).map((a) => a.name);
    const both = (mask & 3) === 3 ? k / 16 : 0;
    return { agents: members, value: members.reduce((v, m) => v + weight[m as 'a' | 'b' | 'c'], both) };
  });
  return episode(`e${String(k)}${tag}`, {
    step,
    agents,
    messages: [
      { agent: 'a', content: `a speaks ${tag}` },
      { agent: 'b', content: 'b reads a', connections: [0], weights: [k / 4] },
      { agent: 'c', content: 'c closes' },
    ],
    coalitions,
    reward: coalitions[7]?.value ?? 0,
  });
}

/** `perStep` episodes at each step of [from, to]; ids are unique per (step, index) and tag. */
const stepsOf = (from: number, to: number, perStep: number, tag = ''): Episode[] =>
  Array.from({ length: (to - from + 1) * perStep }, (_, i) =>
    teamEpisode(from * 100 + i, from + Math.floor(i / perStep), tag),
  );

async function indexedFolder(files: Record<string, readonly Episode[]>): Promise<{ root: string; db: Db }> {
  const root = tempFolder();
  writeFileSync(
    join(root, 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', mechanism: 'pipeline' }),
  );
  for (const [name, list] of Object.entries(files)) writeFileSync(join(root, name), jsonl(...list));
  await runIndexJob({ root, search: false });
  // Read through a connection of its own, as the dashboard panel does, while the index job writes.
  return { root, db: openDatabase(resolveIndexLocation(root).path, { readonly: true }) };
}

const runIdOf = (db: Db): number => db.prepare<{ id: number }>('SELECT run_id AS id FROM run').get()?.id ?? -1;

/** The kept graph equals a fresh service's, for each range; returns what the kept service read for the last. */
async function assertSameAsRebuilt(kept: InfluenceService, db: Db, ranges: readonly [number | null, number | null][]) {
  const runId = runIdOf(db);
  for (const [from, to] of ranges) {
    const incremental = await kept.run(runId, from, to);
    const rebuilt = await new InfluenceService(db).run(runId, from, to);
    assert.deepEqual(incremental, rebuilt, `steps ${String(from)}..${String(to)}`);
  }
  return kept.lastPass;
}

test('appended episodes are added to the kept aggregate: equal to the rebuilt graph, only the new ones read', async () => {
  const { root, db } = await indexedFolder({ 'a.jsonl': stepsOf(1, 3, 4) });
  try {
    const kept = new InfluenceService(db);
    const runId = runIdOf(db);
    const first = await kept.run(runId, 2, null);
    assert.equal(first.episodes, 8);
    assert.deepEqual(kept.lastPass, { rebuilt: true, episodesRead: 8 });
    assert.ok(first.edges.some((e) => e.kind === 'logged' && e.from === 'a' && e.to === 'b'));
    assert.ok(first.edges.some((e) => e.kind === 'counterfactual' && e.from === 'a' && e.to === 'b'));

    appendFileSync(join(root, 'a.jsonl'), jsonl(...stepsOf(4, 4, 4)));
    await runIndexJob({ root, search: false });
    assert.deepEqual(await assertSameAsRebuilt(kept, db, [[2, null]]), { rebuilt: false, episodesRead: 4 });
    assert.equal((await kept.run(runId, 2, null)).episodes, 12);
    assert.deepEqual(kept.lastPass, { rebuilt: false, episodesRead: 0 });

    // A new file of later steps, and a range that ends before them: nothing new to read there.
    writeFileSync(join(root, 'b.jsonl'), jsonl(...stepsOf(5, 6, 3)));
    await runIndexJob({ root, search: false });
    assert.deepEqual(await assertSameAsRebuilt(kept, db, [[null, 3]]), { rebuilt: true, episodesRead: 12 });
    assert.deepEqual(await assertSameAsRebuilt(kept, db, [[2, null]]), { rebuilt: false, episodesRead: 6 });
    appendFileSync(join(root, 'b.jsonl'), jsonl(...stepsOf(7, 7, 2)));
    await runIndexJob({ root, search: false });
    assert.deepEqual(await assertSameAsRebuilt(kept, db, [[null, 3]]), { rebuilt: false, episodesRead: 0 });
  } finally {
    db.close();
  }
});

test('a rewritten or removed file that held episodes already read rebuilds the aggregate', async () => {
  const { root, db } = await indexedFolder({ 'a.jsonl': stepsOf(1, 2, 3), 'b.jsonl': stepsOf(3, 3, 3) });
  try {
    const kept = new InfluenceService(db);
    await kept.run(runIdOf(db), null, null);
    // The first file rewritten: its episodes are deleted and written again after the others (new row ids).
    writeFileSync(join(root, 'a.jsonl'), jsonl(...stepsOf(1, 2, 3, '-rewritten')));
    await runIndexJob({ root, search: false });
    assert.deepEqual(await assertSameAsRebuilt(kept, db, [[null, null]]), { rebuilt: true, episodesRead: 9 });

    // The last file rewritten shorter: its row ids are reused, the fingerprint of what was read is not.
    writeFileSync(join(root, 'a.jsonl'), jsonl(...stepsOf(1, 1, 2, '-again')));
    await runIndexJob({ root, search: false });
    assert.deepEqual(await assertSameAsRebuilt(kept, db, [[null, null]]), { rebuilt: true, episodesRead: 5 });

    rmSync(join(root, 'b.jsonl'));
    await runIndexJob({ root, search: false });
    const pass = await assertSameAsRebuilt(kept, db, [[null, null]]);
    assert.deepEqual(pass, { rebuilt: true, episodesRead: 2 });
  } finally {
    db.close();
  }
});

test('concurrent requests after an append count each episode once; clear() reads the range again', async () => {
  const { root, db } = await indexedFolder({ 'a.jsonl': stepsOf(1, 2, 4) });
  try {
    const kept = new InfluenceService(db);
    const runId = runIdOf(db);
    await kept.run(runId, null, null);
    appendFileSync(join(root, 'a.jsonl'), jsonl(...stepsOf(3, 3, 4)));
    await runIndexJob({ root, search: false });
    const [x, y] = await Promise.all([kept.run(runId, null, null), kept.run(runId, null, null)]);
    const rebuilt = await new InfluenceService(db).run(runId, null, null);
    assert.deepEqual(x, rebuilt);
    assert.deepEqual(y, rebuilt);
    assert.equal(x.episodes, 12);
    kept.clear();
    assert.deepEqual(await kept.run(runId, null, null), rebuilt);
    assert.deepEqual(kept.lastPass, { rebuilt: true, episodesRead: 12 });
  } finally {
    db.close();
  }
});

test('beyond the episode bound, appended episodes are counted as not read, as a rebuild counts them', async () => {
  const { root, db } = await indexedFolder({ 'a.jsonl': stepsOf(1, 1, 3) });
  try {
    const runId = runIdOf(db);
    const kept = new InfluenceService(db, 5);
    assert.equal((await kept.run(runId, null, null)).episodes, 3);
    appendFileSync(join(root, 'a.jsonl'), jsonl(...stepsOf(2, 3, 2)));
    await runIndexJob({ root, search: false });
    const graph = await kept.run(runId, null, null);
    assert.deepEqual(graph, await new InfluenceService(db, 5).run(runId, null, null));
    assert.deepEqual([graph.episodes, graph.skipped], [5, 2]);
    assert.deepEqual(kept.lastPass, { rebuilt: false, episodesRead: 2 });
  } finally {
    db.close();
  }
});

test('a run or range with no episodes gives an empty graph that says so, and is kept without error', async () => {
  const { db } = await indexedFolder({ 'a.jsonl': stepsOf(1, 1, 2) });
  try {
    const kept = new InfluenceService(db);
    for (const [runId, from, to] of [
      [9999, null, null],
      [runIdOf(db), 50, 60],
      [runIdOf(db), 3, 1],
    ] as const) {
      const graph = await kept.run(runId, from, to);
      assert.deepEqual([graph.episodes, graph.skipped, graph.edges.length], [0, 0, 0]);
      assert.equal(graph.missing, 'No episodes to read.');
      assert.deepEqual(await kept.run(runId, from, to), graph);
    }
  } finally {
    db.close();
  }
});
