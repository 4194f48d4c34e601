import type { BindParams, BindValue, Db, Statement } from './database';

/** The part of `node:sqlite`'s StatementSync the adapter uses. */
export interface NodeSqliteStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate?(...params: unknown[]): IterableIterator<unknown>;
  /** From Node 22.16 / 24.0: rows as arrays of column values. */
  setReturnArrays?(enabled: boolean): void;
}

/** The part of `node:sqlite`'s DatabaseSync the adapter uses. */
export interface NodeSqliteDatabase {
  prepare(sql: string): NodeSqliteStatement;
  exec(sql: string): void;
  close(): void;
  /** From Node 22.16 / 24.0: whether a transaction is open (SQLite's autocommit is off). */
  readonly isTransaction?: boolean;
}

/** The `node:sqlite` module (Node ≥ 22.5; unflagged from 22.13). */
export interface NodeSqliteModule {
  readonly DatabaseSync: new (file: string, options?: { readOnly?: boolean; timeout?: number }) => NodeSqliteDatabase;
}

/**
 * The project's {@link Db} over `node:sqlite`, for VS Code builds whose Electron cannot load
 * better-sqlite3's addon. Transactions are BEGIN/COMMIT with savepoints when nested (as
 * better-sqlite3 does); `pragma('x = y')` executes, `pragma('x')` returns the rows.
 */
export function nodeSqliteDb(
  sqlite: NodeSqliteModule,
  file: string,
  options: { readonly readonly: boolean; readonly timeoutMs: number },
): Db {
  const db = new sqlite.DatabaseSync(file, { readOnly: options.readonly, timeout: options.timeoutMs });
  let depth = 0;
  // A transaction opened by `exec('BEGIN')` (a WriteSpan's), for builds without `isTransaction`.
  let begun = false;
  const open = (): boolean => depth > 0 || (db.isTransaction ?? begun);
  const transaction =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      const outer = !open();
      const savepoint = `credit_lens_${depth}`;
      db.exec(outer ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      depth++;
      try {
        const result = fn(...args);
        depth--;
        db.exec(outer ? 'COMMIT' : `RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        depth--;
        db.exec(outer ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        throw error;
      }
    };
  return {
    prepare: <Row>(sql: string) => statement<Row>(db.prepare(sql)),
    exec: (sql) => {
      db.exec(sql);
      begun = explicitTransaction(sql, begun);
    },
    transaction,
    pragma: (source) => (source.includes('=') ? db.exec(`PRAGMA ${source}`) : db.prepare(`PRAGMA ${source}`).all()),
    get inTransaction() {
      return open();
    },
    close: () => db.close(),
  };
}

/** Whether an explicit transaction is open after `sql` ran: a lone BEGIN opens one, COMMIT, END or ROLLBACK ends it. */
function explicitTransaction(sql: string, begun: boolean): boolean {
  const statement = sql.trim().replace(/;$/, '').toUpperCase();
  if (/^BEGIN( (DEFERRED|IMMEDIATE|EXCLUSIVE))?( TRANSACTION)?$/.test(statement)) return true;
  if (/^(COMMIT|END|ROLLBACK)( TRANSACTION)?$/.test(statement)) return false;
  return begun;
}

function statement<Row>(s: NodeSqliteStatement): Statement<Row> {
  const args = (params: BindParams): unknown[] => params as unknown as unknown[];
  return {
    run: (...params) => {
      const result = s.run(...args(params));
      return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
    },
    get: (...params) => plainRow(s.get(...args(params))) as Row | undefined,
    all: (...params) => s.all(...args(params)).map(plainRow) as Row[],
    // StatementSync.iterate exists from Node 22.13/23.4; older builds read the rows at once.
    iterate: (...params) =>
      plainRows<Row>(s.iterate ? s.iterate(...args(params)) : s.all(...args(params))[Symbol.iterator]()),
    allValues: (...params) => {
      if (!s.setReturnArrays) return s.all(...args(params)).map((row) => Object.values(row as object) as BindValue[]);
      s.setReturnArrays(true);
      try {
        return s.all(...args(params)) as BindValue[][];
      } finally {
        s.setReturnArrays(false);
      }
    },
  };
}

/**
 * node:sqlite's rows have no prototype; better-sqlite3's are plain objects. Copying them makes the
 * rows of both drivers alike (deep equality, `toString`, `hasOwnProperty`).
 */
function plainRow(row: unknown): unknown {
  return typeof row === 'object' && row !== null ? { ...row } : row;
}

function* plainRows<Row>(rows: Iterator<unknown>): IterableIterator<Row> {
  try {
    for (let next = rows.next(); next.done !== true; next = rows.next()) yield plainRow(next.value) as Row;
  } finally {
    rows.return?.(); // a caller that stops early releases the statement
  }
}
