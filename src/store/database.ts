import BetterSqlite3 from 'better-sqlite3';
import { migrate } from './migrate';

/** Bind parameters: positional values or one object of named values. */
export type BindValue = string | number | bigint | null | Uint8Array;
export type BindParams = readonly BindValue[] | [Readonly<Record<string, BindValue>>];

/** A prepared statement, the subset of the driver API that the repositories use. */
export interface Statement<Row = unknown> {
  run(...params: BindParams): { changes: number; lastInsertRowid: number | bigint };
  get(...params: BindParams): Row | undefined;
  all(...params: BindParams): Row[];
  iterate(...params: BindParams): IterableIterator<Row>;
}

/**
 * The database as the project sees it. Only `src/store` talks to a driver; keeping this interface
 * narrow lets a `node:sqlite` or WASM driver replace better-sqlite3 (Electron ABI, house-style §17).
 */
export interface Db {
  prepare<Row = unknown>(sql: string): Statement<Row>;
  exec(sql: string): void;
  /** Wraps `fn` in BEGIN/COMMIT (ROLLBACK on throw). `fn` must be synchronous. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  pragma(source: string): unknown;
  readonly inTransaction: boolean;
  close(): void;
}

export interface OpenOptions {
  readonly readonly?: boolean;
  /** Absolute path of a better-sqlite3 `.node` addon built for this runtime's ABI. */
  readonly nativeBinding?: string;
}

/**
 * Opens (creating if needed) an index database, sets the pragmas for a single-writer, many-reader
 * index (WAL, foreign keys, NORMAL sync) and migrates it to the current schema.
 * `':memory:'` opens a private in-memory database (tests).
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new BetterSqlite3(file, {
    timeout: 5000,
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -32768');
  db.pragma('temp_store = MEMORY');
  const wrapped = db as unknown as Db;
  if (!options.readonly) migrate(wrapped);
  return wrapped;
}
