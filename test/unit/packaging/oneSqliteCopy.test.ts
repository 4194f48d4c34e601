import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { bundledNativeBinding } from '../../../src/store/sqliteDriver';
import { betterSqlite3Loads } from '../store/sqliteFakes';

// Code run from source loads node_modules' addon; the bundled workers it starts load dist/native's.
// Two addon files are two copies of SQLite in one process, blind to each other's locks
// (docs/architecture.md §2.1), so the build links the file instead of copying it.
const sourceAddon = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
const distAddon = bundledNativeBinding(process.versions.modules, join(process.cwd(), 'dist'));
// On Node 22 and 24 (the store suite on node:sqlite) node_modules' addon does not load: no addon to share.
const skip = betterSqlite3Loads ? false : `better-sqlite3's addon does not load on Node ${process.version}`;

test('the build places node_modules’ SQLite addon in dist/native as the same file, not a copy', { skip }, () => {
  assert.ok(distAddon, 'build first: node esbuild.mjs');
  const [source, dist] = [statSync(sourceAddon), statSync(distAddon)];
  assert.deepEqual([dist.dev, dist.ino], [source.dev, source.ino]);
});

// The hazard itself: a worker writing through dist/native's addon while the main thread (node_modules'
// addon) opens and closes read-only connections in a tight loop. With two copies this died of SIGBUS
// in every run (BENCHMARKS.md, issue 15, twentieth part); with one file it runs to the end.
const churn = `
const { Worker, isMainThread } = require('node:worker_threads');
const Database = require(process.env.SOURCE_MODULE);
const file = process.env.DB_FILE;
if (isMainThread) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x)');
  db.close();
  const worker = new Worker(process.env.SCRIPT, { eval: true });
  let opens = 0;
  const loop = () => {
    for (let i = 0; i < 50; i++) {
      const r = new Database(file, { readonly: true, timeout: 5000 });
      r.pragma('user_version', { simple: true });
      r.close();
      opens++;
    }
    setImmediate(loop);
  };
  loop();
  worker.on('error', (e) => { console.error(e); process.exit(3); });
  worker.on('exit', () => { console.log('opens', opens); process.exit(0); });
} else {
  const db = new Database(file, { nativeBinding: process.env.DIST_ADDON });
  db.pragma('journal_mode = WAL');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  for (let k = 0; k < 200; k++) {
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(String(Math.random()));
      db.pragma('user_version = ' + (k % 5));
    })();
  }
  db.close();
}`;

test(
  'a bundled worker writing while source code reopens the index read-only does not crash the process',
  { skip },
  () => {
    assert.ok(distAddon, 'build first: node esbuild.mjs');
    const dir = mkdtempSync(join(tmpdir(), 'one-sqlite-'));
    try {
      const result = spawnSync(process.execPath, ['-e', churn], {
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          SCRIPT: churn,
          SOURCE_MODULE: require.resolve('better-sqlite3'),
          DIST_ADDON: distAddon,
          DB_FILE: join(dir, 'index.sqlite'),
        },
      });
      assert.equal(result.signal, null, `killed by ${result.signal}: ${result.stderr}`);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^opens [1-9]\d*/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
