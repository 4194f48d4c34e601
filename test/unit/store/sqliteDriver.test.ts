import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { IndexStore } from '../../../src/store/indexStore';
import { migrate } from '../../../src/store/migrate';
import { sqliteDriverKind } from '../../../src/store/database';
import { currentRuntime, defaultLoaders, selectDriver, type DriverLoaders } from '../../../src/store/sqliteDriver';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { abiMismatch, fakeNodeSqlite, hasNodeSqlite, nodeSqliteLoaders } from './sqliteFakes';

const runtime = { node: 'v22.16.0', abi: '136', electron: '37.2.3' };

/**
 * The driver this run must open: CREDIT_LENS_EXPECT_SQLITE_DRIVER (scripts/testStoreOnNode.mjs
 * sets node:sqlite for its Node 22 and 24 runs), else better-sqlite3, whose addon npm built for
 * the project's Node.
 */
const expectedDriver = process.env['CREDIT_LENS_EXPECT_SQLITE_DRIVER'] ?? 'better-sqlite3';

test(`the store opens ${expectedDriver} on Node ${process.version} (ABI ${process.versions.modules})`, () => {
  assert.equal(selectDriver(undefined, currentRuntime(), defaultLoaders).kind, expectedDriver);
  assert.equal(sqliteDriverKind(), expectedDriver);
  const store = IndexStore.open(':memory:');
  assert.equal(store.summary.summary().episodes, 0);
  store.close();
});

test('selectDriver() falls back to node:sqlite when the addon was built for another ABI', () => {
  const loaders: DriverLoaders = { betterSqlite3: () => abiMismatch, nodeSqlite: fakeNodeSqlite };
  assert.equal(selectDriver(undefined, runtime, loaders).kind, 'node:sqlite');
});

test('selectDriver() fails with an actionable message naming the runtime and both attempts', () => {
  const loaders: DriverLoaders = {
    betterSqlite3: () => abiMismatch,
    nodeSqlite: () => {
      throw new Error('No such built-in module: node:sqlite');
    },
  };
  assert.throws(
    () => selectDriver(undefined, runtime, loaders),
    (error: Error) => {
      assert.match(error.message, /cannot open its SQLite index in Electron 37\.2\.3 \(Node v22\.16\.0, ABI 136\)/);
      assert.match(
        error.message,
        /better-sqlite3: The module better_sqlite3\.node was compiled against a different Node\.js version/,
      );
      assert.match(error.message, /node:sqlite: No such built-in module/);
      assert.match(error.message, /Install the Credit Lens build for your platform/);
      assert.doesNotMatch(error.message, /at stack/);
      return true;
    },
  );
});

test('selectDriver() passes an ABI-specific nativeBinding to better-sqlite3', () => {
  const seen: unknown[] = [];
  const Fake = function (this: unknown, _file: string, options: Record<string, unknown>) {
    seen.push(options['nativeBinding']);
    return { close: () => undefined };
  } as unknown as ReturnType<DriverLoaders['betterSqlite3']>;
  selectDriver('/ext/dist/native/better_sqlite3.abi136.node', runtime, {
    betterSqlite3: () => Fake,
    nodeSqlite: fakeNodeSqlite,
  });
  assert.deepEqual(seen, ['/ext/dist/native/better_sqlite3.abi136.node']);
});

test(`the node:sqlite adapter (${hasNodeSqlite ? 'real node:sqlite' : 'played by better-sqlite3'}) runs migrations, nested transactions with rollback, and a full index pass`, async () => {
  const driver = selectDriver(undefined, runtime, nodeSqliteLoaders);
  assert.equal(driver.kind, 'node:sqlite');
  const db = driver.open(join(tempFolder(), 'i.sqlite'), { readonly: false, timeoutMs: 1000 });
  db.pragma('foreign_keys = ON');
  migrate(db);
  assert.ok(Number((db.pragma('user_version') as { user_version: number }[])[0]?.user_version) >= 2);
  db.exec('CREATE TABLE t (x)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  assert.throws(() =>
    db.transaction(() => {
      insert.run(1);
      db.transaction(() => insert.run(2))();
      throw new Error('roll back all');
    })(),
  );
  assert.equal(db.prepare<{ n: number }>('SELECT count(*) AS n FROM t').get()?.n, 0);
  assert.equal(db.inTransaction, false);
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('x1'), episode('x2')));
  const store = new IndexStore(db);
  const tally = await indexRunFolder(root, store);
  assert.equal(tally.episodesAdded, 2);
  assert.equal(store.summary.summary().messages, 4);
  assert.deepEqual(
    [...db.prepare<{ external_id: string }>('SELECT external_id FROM episode ORDER BY 1').iterate()].map(
      (r) => r.external_id,
    ),
    ['x1', 'x2'],
  );
  store.close();
});

const columnValuesSql = 'SELECT x AS a, y AS b, z AS c FROM t WHERE x > ? ORDER BY x';

/** `allValues` on one driver: arrays in select order, nulls and blobs kept, and the statement's object rows unchanged after. */
function checkAllValues(driver: ReturnType<typeof selectDriver>): void {
  const db = driver.open(':memory:', { readonly: false, timeoutMs: 1000 });
  db.exec(
    "CREATE TABLE t (x INTEGER, y TEXT, z BLOB); INSERT INTO t VALUES (1, 'one', NULL), (2, NULL, x'0102'), (3, 'three', NULL)",
  );
  const statement = db.prepare<{ a: number; b: string | null; c: Uint8Array | null }>(columnValuesSql);
  const values = statement.allValues(1);
  assert.deepEqual(
    values.map((row) => row.map((v) => (v instanceof Uint8Array ? [...v] : v))),
    [
      [2, null, [1, 2]],
      [3, 'three', null],
    ],
  );
  assert.deepEqual(
    statement.all(2).map((row) => ({ ...row })),
    [{ a: 3, b: 'three', c: null }],
  );
  assert.throws(() => statement.allValues(), /1 parameter/);
  db.close();
}

test(`allValues() answers column values in select order on ${expectedDriver}, and object rows after it`, () => {
  checkAllValues(selectDriver(undefined, currentRuntime(), defaultLoaders));
});

test(`allValues() on the node:sqlite adapter (${hasNodeSqlite ? 'real node:sqlite' : 'played by better-sqlite3'})`, () => {
  checkAllValues(selectDriver(undefined, runtime, nodeSqliteLoaders));
});
