import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CreditParams, CreditRow } from '../../../src/core/creditInput';
import { CreditRepository } from '../../../src/store/creditRepository';
import { newestSetsSql } from '../../../src/store/creditSets';
import type { Db } from '../../../src/store/database';
import { migrate, schemaVersion } from '../../../src/store/migrate';
import { indexedDemo, revertCreditSets } from './demoIndex';

// Migration 0023: credit rows under an integer set id, read through the view `credit` with the
// columns they had.

const columns = `credit_id, run_id, episode_id, scope_kind, scope_id, agent_id, message_seq, method, value, stderr, n,
  params_hash, params_json, computed_at, ci_low, ci_high, advantage, approximate, source, status, intervention`;
const allRows = (db: Db): unknown[] => db.prepare(`SELECT ${columns} FROM credit ORDER BY credit_id`).all();

const row = (episodeId: number, agentId: number, k: number, messageSeq: number | null = null): CreditRow => ({
  episodeId,
  agentId,
  messageSeq,
  value: k / 3,
  stderr: k % 2 ? 0.1 : null,
  ciLow: k % 2 ? -1 : null,
  ciHigh: k % 2 ? 1 : null,
  n: k,
  status: (['exact', 'estimated', 'approximate'] as const)[k % 3] ?? 'exact',
  source: k % 2 ? 'logged+checked' : 'logged',
  intervention: k % 2 ? null : 'remove',
  advantage: k % 4 ? k / 10 : null,
});

async function credited(): Promise<{ db: Db; runId: number; agents: number[]; episodes: number[] }> {
  const { store } = await indexedDemo();
  const db = store.db;
  const roster = db
    .prepare<{ run_id: number; episode_id: number; agent_id: number }>(
      `SELECT e.run_id, ea.episode_id, ea.agent_id FROM episode_agent ea JOIN episode e USING (episode_id)
       ORDER BY ea.episode_id, ea.agent_id LIMIT 12`,
    )
    .all();
  const runId = roster[0]?.run_id ?? -1;
  const repo = new CreditRepository(db);
  const params = (method: string, hash: string): CreditParams => ({ method, params: { hash }, hash });
  repo.writeCredit(
    runId,
    params('loo', 'a'),
    roster.map((r, k) => row(r.episode_id, r.agent_id, k)),
    [],
  );
  repo.writeCredit(
    runId,
    params('owen', 'b'),
    roster.slice(0, 4).map((r, k) => row(r.episode_id, r.agent_id, k, k)),
    [],
  );
  repo.writeCredit(
    runId,
    params('loo', 'c'),
    roster.slice(0, 3).map((r, k) => row(r.episode_id, r.agent_id, k + 5)),
    [],
  );
  repo.endWrites();
  return {
    db,
    runId,
    agents: [...new Set(roster.map((r) => r.agent_id))],
    episodes: [...new Set(roster.map((r) => r.episode_id))],
  };
}

test('migration 0023 keeps every credit row as it was: the view gives the old columns, values and ids', async () => {
  const { db, runId, agents, episodes } = await credited();
  const episodeId = episodes[0] ?? -1;
  const before = allRows(db);
  revertCreditSets(db);
  // Rows schema 22 could hold that a pass never writes: a group-scoped row, and approximate set by the column only.
  db.prepare(
    `INSERT INTO credit (run_id, episode_id, scope_kind, scope_id, agent_id, method, value, params_hash, computed_at, approximate, status)
     VALUES (?, NULL, 'group', 'g7', ?, 'loo', 0.5, 'a', '2026-01-01T00:00:00.000Z', 1, 'exact')`,
  ).run(runId, agents[0] ?? -1);
  const old = allRows(db);
  db.pragma(`user_version = ${schemaVersion - 1}`);
  assert.equal(migrate(db), schemaVersion);
  const after = allRows(db) as Record<string, unknown>[];
  assert.deepEqual(after.slice(0, before.length), before);
  assert.equal(old.length, before.length + 1);
  assert.deepEqual(
    [after.at(-1)?.['scope_kind'], after.at(-1)?.['scope_id'], after.at(-1)?.['episode_id'], after.at(-1)?.['status']],
    ['group', 'g7', null, 'approximate'],
  );
  const sets = db.prepare('SELECT run_id, method, params_hash FROM credit_set ORDER BY method, params_hash').all();
  assert.deepEqual(sets, [
    { run_id: runId, method: 'loo', params_hash: 'a' },
    { run_id: runId, method: 'loo', params_hash: 'c' },
    { run_id: runId, method: 'owen', params_hash: 'b' },
  ]);
  // The cascade from a deleted episode goes through to the rows.
  db.prepare('DELETE FROM episode WHERE episode_id = ?').run(episodeId);
  assert.equal(db.prepare<{ n: number }>('SELECT count(*) AS n FROM credit WHERE episode_id = ?').get(episodeId)?.n, 0);
});

test('the newest set of a run and method is the one written last that still has rows', async () => {
  const { db, runId } = await credited();
  const newest = (): unknown[] =>
    db.prepare(`SELECT method, params_hash FROM (${newestSetsSql()}) WHERE run_id = ? ORDER BY method`).all(runId);
  assert.deepEqual(newest(), [
    { method: 'loo', params_hash: 'c' },
    { method: 'owen', params_hash: 'b' },
  ]);
  db.exec(`DELETE FROM credit_value WHERE set_id = (SELECT set_id FROM credit_set WHERE params_hash = 'c')`);
  assert.deepEqual(newest(), [
    { method: 'loo', params_hash: 'a' },
    { method: 'owen', params_hash: 'b' },
  ]);
});

test('writes through the view land in the tables: insert (a new set too), update, delete', async () => {
  const { db, runId, agents, episodes } = await credited();
  const [episodeId = -1] = episodes;
  const [agentId = -1] = agents;
  db.prepare(
    `INSERT INTO credit (run_id, episode_id, scope_kind, scope_id, agent_id, method, value, params_hash, computed_at, status, source)
     VALUES (?, ?, 'episode', ?, ?, 'shapley', 0.25, 'z', '2026-02-02T00:00:00.000Z', 'exact', 'logged')`,
  ).run(runId, episodeId, String(episodeId), agentId);
  const id = db.prepare<{ id: number }>("SELECT credit_id AS id FROM credit WHERE method = 'shapley'").get()?.id;
  assert.ok(id !== undefined);
  assert.deepEqual(db.prepare('SELECT scope_kind, scope_id FROM credit_value WHERE credit_id = ?').get(id), {
    scope_kind: null,
    scope_id: null,
  });
  assert.deepEqual(db.prepare("SELECT newest FROM credit_set WHERE method = 'shapley'").get(), { newest: id });
  db.prepare('UPDATE credit SET advantage = 2, value = 0.75 WHERE credit_id = ?').run(id);
  assert.deepEqual(db.prepare('SELECT value, advantage, scope_id FROM credit WHERE credit_id = ?').get(id), {
    value: 0.75,
    advantage: 2,
    scope_id: String(episodeId),
  });
  db.prepare('DELETE FROM credit WHERE credit_id = ?').run(id);
  assert.equal(db.prepare<{ n: number }>('SELECT count(*) AS n FROM credit_value WHERE credit_id = ?').get(id)?.n, 0);
});
