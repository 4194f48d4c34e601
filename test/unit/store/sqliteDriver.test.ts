import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexRunFolder } from '../../../src/ingest/indexRunFolder';
import { IndexStore } from '../../../src/store/indexStore';
import { migrate } from '../../../src/store/migrate';
import type { NodeSqliteDatabase, NodeSqliteModule, NodeSqliteStatement } from '../../../src/store/nodeSqliteDb';
import { defaultLoaders, selectDriver, type DriverLoaders } from '../../../src/store/sqliteDriver';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

const runtime = { node: 'v22.16.0', abi: '136', electron: '37.2.3' };
/** A better-sqlite3 whose addon was built for Node 20 (ABI 115), as desktop VS Code would see it. */
const abiMismatch = function (): never {
  throw new Error(
    'The module better_sqlite3.node was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 136.\n    at stack',
  );
} as unknown as ReturnType<DriverLoaders['betterSqlite3']>;

/** node:sqlite's DatabaseSync API, played by better-sqlite3 (Node 20 has no node:sqlite). */
function fakeNodeSqlite(): NodeSqliteModule {
  const Better = createRequire(__filename)('better-sqlite3') as new (file: string) => {
    prepare(sql: string): {
      run(...a: unknown[]): { changes: number; lastInsertRowid: number };
      get(...a: unknown[]): unknown;
      all(...a: unknown[]): unknown[];
      reader: boolean;
    };
    exec(sql: string): void;
    close(): void;
  };
  class DatabaseSync implements NodeSqliteDatabase {
    private readonly db;
    constructor(file: string) {
      this.db = new Better(file);
    }
    prepare(sql: string): NodeSqliteStatement {
      const s = this.db.prepare(sql);
      // node:sqlite returns {changes, lastInsertRowid} even for statements that return rows.
      return {
        run: (...a) => (s.reader ? (s.all(...a), { changes: 0, lastInsertRowid: 0 }) : s.run(...a)),
        get: (...a) => s.get(...a),
        all: (...a) => s.all(...a),
      };
    }
    exec(sql: string): void {
      this.db.exec(sql);
    }
    close(): void {
      this.db.close();
    }
  }
  return { DatabaseSync };
}

test('selectDriver() picks better-sqlite3 where its addon loads', () => {
  assert.equal(selectDriver(undefined, runtime, defaultLoaders).kind, 'better-sqlite3');
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

test('the node:sqlite adapter runs migrations, nested transactions with rollback, and a full index pass', async () => {
  const driver = selectDriver(undefined, runtime, { betterSqlite3: () => abiMismatch, nodeSqlite: fakeNodeSqlite });
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
