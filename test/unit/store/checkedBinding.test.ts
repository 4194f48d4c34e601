import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sqlParameters } from '../../../src/store/checkedBinding';
import { defaultLoaders, selectDriver, type DriverLoaders } from '../../../src/store/sqliteDriver';
import { betterSqlite3Loads, nodeSqliteLoaders } from './sqliteFakes';

const runtime = { node: process.version, abi: process.versions.modules };
const noNodeSqlite = (): never => {
  throw new Error('No such built-in module: node:sqlite');
};

const drivers: readonly { name: string; loaders: DriverLoaders; skip: string | false }[] = [
  {
    name: 'better-sqlite3',
    loaders: { ...defaultLoaders, nodeSqlite: noNodeSqlite },
    skip: betterSqlite3Loads ? false : `its addon does not load on Node ${process.version}`,
  },
  { name: 'node:sqlite', loaders: nodeSqliteLoaders, skip: false },
];

test('sqlParameters() finds named and positional parameters outside literals, quoted identifiers and comments', () => {
  const sql = `SELECT ':no', "a:b", [c:d], \`e:f\`, 'it''s @no' -- :no ?\n /* $no ? */ , :run, @step, $group, :run FROM t WHERE x = ?`;
  const p = sqlParameters(sql);
  assert.deepEqual([...p.named].sort(), ['group', 'run', 'step']);
  assert.equal(p.positional, 1);
  assert.deepEqual(sqlParameters('SELECT ?, ?, ?5').positional, 5);
  assert.deepEqual(sqlParameters("SELECT ?3 || '?', ?").positional, 4);
  assert.deepEqual(sqlParameters('SELECT 1').named.size, 0);
});

for (const driver of drivers) {
  test(
    `${driver.name}: a statement bound with a value it does not use, or without one it does, throws`,
    { skip: driver.skip },
    () => {
      const db = selectDriver(undefined, runtime, driver.loaders).open(':memory:', {
        readonly: false,
        timeoutMs: 1000,
      });
      const named = db.prepare<{ a: number; b: number }>('SELECT :a AS a, @b AS b');
      assert.deepEqual({ ...named.get({ a: 1, b: 2 }) }, { a: 1, b: 2 });
      assert.throws(() => named.get({ a: 1, b: 2, limit: 3 }), /Unknown named parameter 'limit'/);
      assert.throws(() => named.all({ a: 1, b: 2, offset: 0 }), /Unknown named parameter 'offset'/);
      assert.throws(() => [...named.iterate({ a: 1, b: 2, c: 3 })], /Unknown named parameter 'c'/);
      assert.throws(() => named.all({ a: 1 }), /Missing named parameter 'b'/);
      assert.throws(() => named.get(1, 2), /2 positional value\(s\) bound to named parameters/);
      const positional = db.prepare<{ x: number }>('SELECT ? AS x');
      assert.equal(positional.get(7)?.x, 7);
      const blob = db.prepare<{ x: Uint8Array }>('SELECT ? AS x').get(new Uint8Array([1, 2]))?.x; // one positional blob, not named values
      assert.deepEqual([...(blob ?? [])], [1, 2]);
      assert.throws(() => positional.get(1, 2), /2 value\(s\) bound to 1 parameter\(s\)/);
      assert.throws(() => positional.get(), /0 value\(s\) bound to 1 parameter\(s\)/);
      db.exec('CREATE TABLE t (x)');
      assert.throws(() => db.prepare('INSERT INTO t VALUES (?)').run({ x: 1 }), /Unknown named parameter 'x'/);
      assert.equal(db.prepare('INSERT INTO t VALUES (:x)').run({ x: 1 }).changes, 1);
      assert.throws(() => db.prepare('SELECT :a, ?'), /mixes named and positional parameters/);
      db.close();
    },
  );
}
