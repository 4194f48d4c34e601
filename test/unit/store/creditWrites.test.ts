import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CreditParams, CreditRow } from '../../../src/core/creditInput';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { CreditRepository } from '../../../src/store/creditRepository';
import type { Db } from '../../../src/store/database';
import { migrate } from '../../../src/store/migrate';
import { indexedDemo, revertTo11 } from './demoIndex';
import { queryPlan } from './queryPlan';

/** One agent-level row per roster entry of the run's first `episodes` episodes, with distinct values. */
function rowsOf(db: Db, runId: number, episodes: number): CreditRow[] {
  return db
    .prepare<{ episode_id: number; agent_id: number }>(
      `SELECT ea.episode_id, ea.agent_id FROM episode_agent ea JOIN episode e USING (episode_id)
      WHERE e.run_id = ? AND e.episode_id IN (SELECT episode_id FROM episode WHERE run_id = ? ORDER BY episode_id LIMIT ?)
      ORDER BY ea.episode_id, ea.agent_id`,
    )
    .all(runId, runId, episodes)
    .map((r, i) => ({
      episodeId: r.episode_id,
      agentId: r.agent_id,
      messageSeq: null,
      value: i / 7,
      stderr: null,
      ciLow: null,
      ciHigh: null,
      n: i,
      status: i % 3 === 0 ? 'approximate' : 'exact',
      source: 'logged',
      intervention: 'remove',
      advantage: null,
    }));
}

const looParams = (params: Record<string, unknown>): CreditParams => ({ method: 'loo', params, hash: 'h1' });

interface StoredRow {
  run_id: number;
  episode_id: number;
  scope_kind: string;
  scope_id: string;
  agent_id: number;
  method: string;
  params_hash: string;
  params_json: string | null;
  computed_at: string;
  value: number;
  n: number;
  approximate: number;
  status: string;
  source: string;
  intervention: string;
}

async function creditedDemo(episodes: number) {
  const demo = await indexedDemo();
  const db = demo.store.db;
  const runId = db.prepare<{ run_id: number }>('SELECT run_id FROM episode ORDER BY episode_id LIMIT 1').get()?.run_id;
  assert.ok(runId !== undefined);
  const rows = rowsOf(db, runId, episodes);
  new CreditRepository(db).writeCredit(runId, looParams({ advantage: 'grpo' }), rows, []);
  return { ...demo, db, runId, rows };
}

test('writeCredit stores every row with its shared columns, and the parameter set once', async () => {
  const { db, runId, rows } = await creditedDemo(40);
  assert.ok(rows.length > 64, 'more rows than one insert statement takes');
  const stored = db.prepare<StoredRow>('SELECT * FROM credit ORDER BY credit_id').all();
  assert.equal(stored.length, rows.length);
  assert.equal(new Set(stored.map((r) => r.computed_at)).size, 1);
  stored.forEach((s, i) => {
    const r = rows[i];
    assert.ok(r);
    assert.deepEqual(
      [s.run_id, s.episode_id, s.scope_kind, s.scope_id, s.agent_id, s.method, s.params_hash, s.params_json],
      [runId, r.episodeId, 'episode', String(r.episodeId), r.agentId, 'loo', 'h1', null],
    );
    assert.deepEqual(
      [s.value, s.n, s.status, s.approximate, s.source, s.intervention],
      [r.value, r.n, r.status, r.status === 'approximate' ? 1 : 0, 'logged', 'remove'],
    );
  });
  const params = (): unknown[] => db.prepare('SELECT * FROM credit_params').all();
  assert.deepEqual(params(), [
    { run_id: runId, method: 'loo', params_hash: 'h1', params_json: '{"advantage":"grpo"}' },
  ]);
  new CreditRepository(db).writeCredit(runId, looParams({ advantage: 'rloo' }), rows.slice(0, 3), []);
  assert.deepEqual(params(), [
    { run_id: runId, method: 'loo', params_hash: 'h1', params_json: '{"advantage":"rloo"}' },
  ]);
  assert.equal(
    db.prepare<{ n: number }>('SELECT count(*) AS n FROM credit').get()?.n,
    rows.length,
    'replaced, not added',
  );
});

test('credit_key serves clearing and the cascade: a rewritten file takes its episodes’ credit away', async () => {
  const { db, store, root, rollouts, files } = await creditedDemo(1000);
  // The cascade from a deleted episode, and the pass's clearing of its episodes' rows (creditRepository.ts).
  for (const sql of [
    'DELETE FROM credit_value WHERE episode_id = ?',
    `DELETE FROM credit_value WHERE set_id IN (SELECT set_id FROM credit_set WHERE method = 'loo' AND params_hash = 'h1')
      AND episode_id IN (SELECT value FROM json_each(?))`,
  ])
    assert.match(
      queryPlan(db, sql, {}, [1]).join(' | '),
      /SEARCH credit_value USING (COVERING )?INDEX (credit_key \(episode_id=\?\)|credit_agent_value \(set_id=\? AND episode_id=\?\))/,
    );
  const count = (sql: string, ...params: string[]): number => db.prepare<{ n: number }>(sql).get(...params)?.n ?? -1;
  const ofFile = `SELECT count(*) AS n FROM credit c JOIN episode e USING (episode_id) JOIN source s USING (source_id)
    WHERE s.uri LIKE '%' || ?`;
  const first = files[0] ?? '';
  const before = count('SELECT count(*) AS n FROM credit');
  const gone = count(ofFile, first);
  assert.ok(gone > 0 && gone < before);
  writeFileSync(join(rollouts, first), '');
  await indexRunFolder(root, store);
  assert.equal(count('SELECT count(*) AS n FROM credit'), before - gone);
  assert.equal(count(ofFile, first), 0);
});

test('migration 0012 moves params_json into credit_params and drops the credit indexes no query uses', async () => {
  const { db, runId } = await creditedDemo(20);
  revertTo11(db);
  db.exec(`UPDATE credit SET params_json = '{"advantage":"grpo"}'`);
  migrate(db);
  assert.deepEqual(db.prepare('SELECT run_id, method, params_hash, params_json FROM credit_params').all(), [
    { run_id: runId, method: 'loo', params_hash: 'h1', params_json: '{"advantage":"grpo"}' },
  ]);
  assert.equal(db.prepare<{ n: number }>('SELECT count(params_json) AS n FROM credit').get()?.n, 0);
  const indexes = db
    .prepare<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'credit_value' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
  // 0012 leaves three; 0015 adds the per-agent sort of the episode table; 0023 moves the rows to
  // credit_value under their set's id, with three (credit_agent_value now over every row).
  assert.deepEqual(indexes, ['credit_agent_sort', 'credit_agent_value', 'credit_key']);
});
