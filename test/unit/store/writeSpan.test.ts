import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase, type Db } from '../../../src/store/database';
import { selectDriver } from '../../../src/store/sqliteDriver';
import { spanIdleMs, spanMaxMs, WriteSpan } from '../../../src/store/writeSpan';
import { tempFolder } from '../../builders/episodeBuilder';
import { hasNodeSqlite, nodeSqliteLoaders } from './sqliteFakes';

const runtime = { node: 'v22.16.0', abi: '136', electron: '37.2.3' };

/** A writer and a second connection that reads what the writer committed. */
interface Pair {
  readonly writer: Db;
  readonly reader: Db;
}

const drivers: readonly { name: string; open: (file: string) => Db }[] = [
  { name: `the project's driver on Node ${process.version}`, open: (file) => openDatabase(file) },
  {
    name: `the node:sqlite adapter (${hasNodeSqlite ? 'real node:sqlite' : 'played by better-sqlite3'})`,
    open: (file) => {
      const db = selectDriver(undefined, runtime, nodeSqliteLoaders).open(file, { readonly: false, timeoutMs: 1000 });
      db.pragma('journal_mode = WAL');
      return db;
    },
  },
];

for (const driver of drivers)
  describe(`WriteSpan on ${driver.name}`, () => {
    const pair = (): Pair => {
      const file = join(tempFolder(), 'span.sqlite');
      const writer = driver.open(file);
      writer.exec('CREATE TABLE t (x INTEGER)');
      return { writer, reader: driver.open(file) };
    };
    const committed = (p: Pair): number[] =>
      p.reader
        .prepare<{ x: number }>('SELECT x FROM t ORDER BY x')
        .all()
        .map((r) => r.x);
    const inserter = (p: Pair) => {
      const insert = p.writer.prepare('INSERT INTO t VALUES (?)');
      return (x: number) => () => {
        insert.run(x);
      };
    };

    test('writes share one transaction until the span commits; then another connection sees them all', () => {
      const p = pair();
      const span = new WriteSpan(p.writer, () => 0);
      const put = inserter(p);
      span.write(put(1));
      span.write(put(2));
      assert.equal(p.writer.inTransaction, true, 'the span holds its transaction between writes');
      assert.deepEqual(committed(p), [], 'nothing is committed yet');
      span.commit();
      assert.equal(p.writer.inTransaction, false);
      assert.deepEqual(committed(p), [1, 2]);
      span.commit();
      assert.deepEqual(committed(p), [1, 2], 'a second commit is a no-op');
      p.writer.close();
      p.reader.close();
    });

    test('a write that throws rolls back alone; the writes around it are kept', () => {
      const p = pair();
      const span = new WriteSpan(p.writer, () => 0);
      const put = inserter(p);
      span.write(put(1));
      assert.throws(() =>
        span.write(() => {
          put(2)();
          throw new Error('this batch fails');
        }),
      );
      span.write(put(3));
      span.commit();
      assert.deepEqual(committed(p), [1, 3]);
      p.writer.close();
      p.reader.close();
    });

    test(`the span commits itself once it is ${String(spanMaxMs)} ms old, and the next write opens a new one`, () => {
      const p = pair();
      let now = 0;
      const span = new WriteSpan(p.writer, () => now);
      const put = inserter(p);
      span.write(put(1));
      now = spanMaxMs - 1;
      span.write(put(2));
      assert.deepEqual(committed(p), []);
      now = spanMaxMs;
      span.write(put(3));
      assert.deepEqual(committed(p), [1, 2, 3], 'the write that finds the span old commits it');
      span.write(put(4));
      assert.deepEqual(committed(p), [1, 2, 3], 'a new span');
      span.commit();
      assert.deepEqual(committed(p), [1, 2, 3, 4]);
      p.writer.close();
      p.reader.close();
    });

    test(`a span left open is committed ${String(spanIdleMs)} ms after its last write, when the event loop turns`, async () => {
      const p = pair();
      const span = new WriteSpan(p.writer);
      span.write(inserter(p)(1));
      assert.deepEqual(committed(p), []);
      await sleep(spanIdleMs * 3);
      assert.deepEqual(committed(p), [1]);
      assert.equal(p.writer.inTransaction, false);
      p.writer.close();
      p.reader.close();
    });

    test('a span opened by a write that threw does not hold the write lock: its idle timer ends it', async () => {
      const p = pair();
      const span = new WriteSpan(p.writer);
      const put = inserter(p);
      assert.throws(() =>
        span.write(() => {
          put(1)();
          throw new Error('the first batch fails');
        }),
      );
      await sleep(spanIdleMs * 3);
      assert.equal(p.writer.inTransaction, false, 'the lock is not held until the pass ends');
      span.write(put(2));
      span.commit();
      assert.deepEqual(committed(p), [2]);
      p.writer.close();
      p.reader.close();
    });

    test('a connection closed before the idle timer fires: the timer does nothing and throws nothing', async () => {
      const p = pair();
      const span = new WriteSpan(p.writer);
      span.write(inserter(p)(1));
      p.writer.close();
      await sleep(spanIdleMs * 3);
      assert.deepEqual(committed(p), [], 'closing a connection rolls back what it did not commit');
      p.reader.close();
    });

    test("inside a caller's transaction the span neither opens nor commits one", () => {
      const p = pair();
      const span = new WriteSpan(p.writer, () => spanMaxMs * 10);
      const put = inserter(p);
      p.writer.transaction(() => {
        span.write(put(1));
        span.commit();
        assert.equal(p.writer.inTransaction, true, "the caller's transaction is still open");
      })();
      assert.deepEqual(committed(p), [1]);
      assert.throws(() =>
        p.writer.transaction(() => {
          span.write(put(2));
          throw new Error('the caller rolls back');
        })(),
      );
      assert.deepEqual(committed(p), [1], "the span's write went with the caller's rollback");
      p.writer.close();
      p.reader.close();
    });
  });
