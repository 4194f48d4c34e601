import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardSummary } from '../../../src/engine/export/shardSummary';
import { openDatabase } from '../../../src/store/database';
import { schemaVersion } from '../../../src/store/migrate';
import { ExportRepository } from '../../../src/store/exportRepository';
import { maxAttached, ShardSet } from '../../../src/store/shardSet';
import { tempFolder } from '../../builders/episodeBuilder';

/** [step, agent, value] of one agent-level loo credit row (one episode per row). */
type CreditValue = readonly [number, string, number | null];

/** A small index holding one run's episodes with loo credit, and one flag; built by SQL, as the indexer would store them. */
function tinyIndex(file: string, run: string, values: readonly CreditValue[]): string {
  const db = openDatabase(file);
  db.prepare("INSERT INTO run (run_id, root, name) VALUES (1, '', ?)").run(run);
  db.prepare(
    "INSERT INTO source (source_id, run_id, uri, format, size, mtime_ms, indexed_offset, lines, head_hash, imported_at, importer_version) VALUES (1, 1, 'a.jsonl', 'credit_lens_jsonl', 0, 0, 0, 0, '', '', '')",
  ).run();
  const agents = new Map<string, number>();
  for (const [i, [step, agent, value]] of values.entries()) {
    let agentId = agents.get(agent);
    if (agentId === undefined) {
      agentId = agents.size + 1;
      agents.set(agent, agentId);
      db.prepare('INSERT INTO agent (agent_id, run_id, name) VALUES (?, 1, ?)').run(agentId, agent);
    }
    db.prepare(
      'INSERT INTO episode (episode_id, run_id, source_id, line, byte_offset, byte_length, external_id, train_step, n_messages, messages_json) VALUES (?, 1, 1, ?, 0, 0, ?, ?, 1, \'[[0,0,"assistant",null,3,null,0]]\')',
    ).run(i + 1, i + 1, `${run}-${file}-${String(i)}`, step);
    db.prepare(
      'INSERT INTO episode_agent (episode_id, agent_id, ordinal, declared, n_messages, n_chars) VALUES (?, ?, 0, 1, 1, 3)',
    ).run(i + 1, agentId);
    db.prepare(
      "INSERT INTO credit (run_id, episode_id, scope_kind, scope_id, agent_id, method, value, params_hash, computed_at) VALUES (1, ?, 'episode', ?, ?, 'loo', ?, 'p1', '')",
    ).run(i + 1, String(i + 1), agentId, value);
  }
  db.prepare(
    "INSERT INTO flag (run_id, scope_kind, scope_id, agent_id, kind, computed_at) VALUES (1, 'step', '1..2', 1, 'idle', '')",
  ).run();
  db.close();
  return file;
}

test('a mean over shards is Σvalue / Σn over every shard, with NULL and infinite values skipped', () => {
  const dir = tempFolder();
  const a = tinyIndex(join(dir, 'a.sqlite'), 'r', [
    [1, 'x', 1],
    [2, 'x', 3],
    [3, 'x', null],
  ]);
  const b = tinyIndex(join(dir, 'b.sqlite'), 'r', [
    [4, 'x', 5],
    [5, 'x', Number.POSITIVE_INFINITY],
  ]);
  const { shards, problems } = ShardSet.open([a, b]);
  try {
    assert.deepEqual(problems, []);
    const summary = shardSummary(shards, problems, 'loo');
    const x = summary.runs[0]?.agents[0];
    // Not the mean of the shard means ((2 + 5) / 2 = 3.5): the mean of 1, 3, 5.
    assert.equal(x?.mean, 3);
    assert.equal(x?.episodes, 3);
    // Steps 1..4 (the infinite value's step 5 is left out): early ≤ 1.75, late ≥ 3.25.
    assert.equal(x?.early, 1);
    assert.equal(x?.late, 5);
    assert.equal(summary.flags.length, 2);
    assert.deepEqual(
      summary.flags.map((f) => f.shard),
      [a, b],
    );
  } finally {
    shards.close();
  }
});

test(`more shards than one connection attaches (${String(maxAttached + 1)}) are read over several connections`, () => {
  const dir = tempFolder();
  const files = Array.from({ length: 2 * maxAttached + 3 }, (_, i) =>
    tinyIndex(join(dir, `s${String(i)}.sqlite`), 'r', [[i, 'x', i]]),
  );
  const { shards, problems } = ShardSet.open(files);
  try {
    assert.deepEqual(problems, []);
    const x = shardSummary(shards, problems, 'loo').runs[0]?.agents[0];
    const n = files.length;
    assert.equal(x?.episodes, n);
    assert.equal(x?.mean, (n - 1) / 2);
    const episodes = [...new ExportRepository(shards).episodes()];
    assert.equal(episodes.length, n);
    assert.deepEqual(
      episodes.map((e) => e.shard),
      files.map((_, i) => i),
    );
  } finally {
    shards.close();
  }
});

test('a missing, corrupt or foreign file is named and left out; the other shards are read', () => {
  const dir = tempFolder();
  const good = tinyIndex(join(dir, 'good.sqlite'), 'r', [[1, 'x', 2]]);
  const corrupt = join(dir, 'corrupt.sqlite');
  writeFileSync(corrupt, 'this is not an SQLite database, only some bytes '.repeat(40));
  const foreign = join(dir, 'foreign.sqlite');
  const plain = openDatabase(foreign);
  plain.pragma('user_version = 0'); // an SQLite file, but not (or no longer) a Credit Lens index
  plain.close();
  const missing = join(dir, 'missing.sqlite');
  const [older, newer] = [join(dir, 'older.sqlite'), join(dir, 'newer.sqlite')];
  for (const [path, version] of [
    [older, schemaVersion - 1],
    [newer, schemaVersion + 1],
  ] as const) {
    tinyIndex(path, 'r', [[1, 'x', 5]]);
    const other = openDatabase(path);
    other.pragma(`user_version = ${version}`); // written by another Credit Lens
    other.close();
  }
  const { shards, problems } = ShardSet.open([missing, corrupt, good, foreign, older, newer]);
  try {
    assert.deepEqual(
      problems.map((p) => p.path),
      [missing, corrupt, foreign, older, newer],
    );
    assert.match(problems[0]?.reason ?? '', /no such index file/);
    assert.match(problems[1]?.reason ?? '', /not a database/);
    assert.match(problems[2]?.reason ?? '', /not a Credit Lens index/);
    assert.match(
      problems[3]?.reason ?? '',
      /is older than this Credit Lens reads .*index the folder once with this version/,
    );
    assert.match(problems[4]?.reason ?? '', /is newer than this Credit Lens understands/);
    assert.deepEqual(shards.paths, [good]);
    assert.equal(shardSummary(shards, problems, 'loo').runs[0]?.agents[0]?.mean, 2);
  } finally {
    shards.close();
  }
});
