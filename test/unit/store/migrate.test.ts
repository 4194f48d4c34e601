import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../../src/store/database';
import { IndexSchemaError, migrate, schemaVersion } from '../../../src/store/migrate';
import { tempFolder } from '../../builders/episodeBuilder';

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

test('a read-only connection refuses an index of another schema, older or newer, and names the remedy', () => {
  const file = join(tempFolder(), 'index.sqlite');
  const writer = openDatabase(file); // kept open: opening it again to write would migrate it
  const refusal = (version: number): IndexSchemaError | undefined => {
    writer.pragma(`user_version = ${version}`);
    try {
      openDatabase(file, { readonly: true }).close();
      return undefined;
    } catch (error) {
      return error instanceof IndexSchemaError ? error : undefined;
    }
  };
  const older = refusal(schemaVersion - 1);
  assert.equal(older?.direction, 'older');
  assert.match(
    older?.message ?? '',
    /older than this Credit Lens reads .*index the folder once with this version to upgrade it/,
  );
  const newer = refusal(schemaVersion + 1);
  assert.equal(newer?.direction, 'newer');
  assert.match(newer?.message ?? '', /newer than this Credit Lens understands.*upgrade Credit Lens/);
  assert.equal(refusal(schemaVersion), undefined);
  assert.equal(refusal(0), undefined, 'no Credit Lens schema: the first read says what it is');
  writer.close();
});

test('migrate(db, steps) rolls back a failing migration and keeps the previous version', () => {
  const db = openDatabase(':memory:');
  const steps = [...Array(schemaVersion).fill(''), 'CREATE TABLE extra (x); INSERT INTO missing_table VALUES (1);'];
  assert.throws(() => migrate(db, steps), /no such table: missing_table/);
  assert.equal(userVersion(db), schemaVersion);
  assert.equal(db.prepare<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'extra'").get()?.n, 0);
});
