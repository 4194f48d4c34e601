import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../../src/store/database';
import { migrate, schemaVersion } from '../../../src/store/migrate';

function userVersion(db: ReturnType<typeof openDatabase>): number {
  return (db.pragma('user_version') as { user_version: number }[])[0]?.user_version ?? -1;
}

test('openDatabase(":memory:") migrates an empty database from zero to the current schema', () => {
  const db = openDatabase(':memory:');
  assert.equal(userVersion(db), schemaVersion);
  const tables = db
    .prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
    .all()
    .map((r) => r.name);
  for (const table of [
    'run',
    'source',
    'agent',
    'agent_alias',
    'episode',
    'episode_agent',
    'message',
    'reward',
    'label',
    'routing',
    'counterfactual',
    'coalition_value',
    'credit',
    'flag',
    'parse_error',
    'episode_fts',
  ]) {
    assert.ok(tables.includes(table), `missing table ${table}`);
  }
});

test('migrate(db) is idempotent on an up-to-date database', () => {
  const db = openDatabase(':memory:');
  assert.equal(migrate(db), schemaVersion);
  assert.equal(userVersion(db), schemaVersion);
});

test('migrate(db) refuses a database written by a newer schema', () => {
  const db = openDatabase(':memory:');
  db.pragma(`user_version = ${schemaVersion + 1}`);
  assert.throws(() => migrate(db), /newer than this Credit Lens understands/);
});

test('migrate(db, steps) rolls back a failing migration and keeps the previous version', () => {
  const db = openDatabase(':memory:');
  const steps = [...Array(schemaVersion).fill(''), 'CREATE TABLE extra (x); INSERT INTO missing_table VALUES (1);'];
  assert.throws(() => migrate(db, steps), /no such table: missing_table/);
  assert.equal(userVersion(db), schemaVersion);
  assert.equal(db.prepare<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'extra'").get()?.n, 0);
});
