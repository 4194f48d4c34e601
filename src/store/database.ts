import { assertReadableSchema, migrate } from './migrate';
import { selectDriver, type DriverKind, type SqliteDriver } from './sqliteDriver';

/** Bind parameters: positional values or one object of named values. */
export type BindValue = string | number | bigint | null | Uint8Array;
export type BindParams = readonly BindValue[] | [Readonly<Record<string, BindValue>>];

/** A prepared statement, the subset of the driver API that the repositories use. */
export interface Statement<Row = unknown> {
  run(...params: BindParams): { changes: number; lastInsertRowid: number | bigint };
  get(...params: BindParams): Row | undefined;
  all(...params: BindParams): Row[];
  iterate(...params: BindParams): IterableIterator<Row>;
  /**
   * The rows as arrays of column values in select order: no object (and no property names) per
   * row, for reads of hundreds of thousands of rows (a credit pass reads its episodes this way).
   */
  allValues(...params: BindParams): BindValue[][];
}

/**
 * The database as the project sees it. Only `src/store` talks to a driver; keeping this interface
 * narrow lets a `node:sqlite` or WASM driver replace better-sqlite3 (Electron ABI, docs/architecture.md §2.1).
 */
export interface Db {
  prepare<Row = unknown>(sql: string): Statement<Row>;
  exec(sql: string): void;
  /** Wraps `fn` in BEGIN/COMMIT (ROLLBACK on throw). `fn` must be synchronous. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  pragma(source: string): unknown;
  readonly inTransaction: boolean;
  close(): void;
  /**
   * better-sqlite3 only: lifts SQLite's defensive mode, which forbids writing the shadow tables of
   * FTS5 (copying a side-built full-text index in, searchRepository.ts). Absent on other drivers.
   */
  unsafeMode?(on: boolean): unknown;
}

export interface OpenOptions {
  readonly readonly?: boolean;
  /** Absolute path of a better-sqlite3 `.node` addon built for this runtime's ABI. */
  readonly nativeBinding?: string;
  /**
   * Keep the connection's temporary data in memory (`temp_store = MEMORY`) instead of files. Only
   * for a connection whose temporary data is the journals of its own writes: a credit write worker
   * (docs/architecture.md §2.3). Its statements and savepoints each touch at most one batch's pages,
   * but once those pass 64 KiB SQLite moves their journal to a temporary file, which graded credit
   * values (spread over all of `credit_agent_sort`) did for nearly every statement. Connections
   * that sort or build temporary tables keep them in files (the default, below).
   */
  readonly journalsInMemory?: boolean;
  /**
   * The page cache's bound in MiB (default 32). Smaller where it was measured to cost no time and
   * to lower a 10 GB run's peak (docs/architecture.md §2.1): 8 for a credit pass's reading thread,
   * which reads the index once in order and re-reads no page; 16 for the indexer's writer.
   */
  readonly cacheMiB?: number;
}

/** The page cache of a connection that does not say otherwise ({@link OpenOptions.cacheMiB}). */
const defaultCacheMiB = 32;

/**
 * Opens (creating if needed) an index database, sets the pragmas for a single-writer, many-reader
 * index (WAL, foreign keys, NORMAL sync) and migrates it to the current schema. A read-only
 * connection migrates nothing and refuses an index of another schema (an IndexSchemaError).
 * `':memory:'` opens a private in-memory database (tests).
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = driverFor(options.nativeBinding).open(file, { readonly: options.readonly ?? false, timeoutMs: 5000 });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${Math.round((options.cacheMiB ?? defaultCacheMiB) * 1024)}`);
  // Sorts and temporary b-trees spill to temporary files past the cache instead of growing the
  // process: the credit pass's rebuild of the aggregates at 10 GB (a GROUP BY over 3.9 M credit
  // rows) peaked at 509 MB held in memory, 174 MB spilling (and ran no slower).
  db.pragma(options.journalsInMemory ? 'temp_store = MEMORY' : 'temp_store = FILE');
  if (!options.readonly) migrate(db);
  else checkReadable(db);
  return db;
}

/** A read-only connection on an index of another schema is closed and refused (see assertReadableSchema). */
function checkReadable(db: Db): void {
  try {
    assertReadableSchema(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Which SQLite binding {@link openDatabase} uses in this process (choosing it now if no index was
 * opened yet), for logs. Throws the actionable no-driver error when neither binding loads.
 */
export function sqliteDriverKind(nativeBinding?: string): DriverKind {
  return driverFor(nativeBinding).kind;
}

const drivers = new Map<string, SqliteDriver>();

/** The driver for this process (chosen once per native binding; see selectDriver). */
function driverFor(nativeBinding: string | undefined): SqliteDriver {
  const key = nativeBinding ?? '';
  let driver = drivers.get(key);
  if (!driver) {
    driver = selectDriver(nativeBinding);
    drivers.set(key, driver);
  }
  return driver;
}
