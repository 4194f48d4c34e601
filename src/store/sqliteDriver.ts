import BetterSqlite3 from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Db } from './database';
import { nodeSqliteDb, type NodeSqliteModule } from './nodeSqliteDb';

/** Which SQLite binding serves the index in this process. */
export type DriverKind = 'better-sqlite3' | 'node:sqlite';

/** Opens a database file with the chosen binding (before pragmas and migrations). */
export interface SqliteDriver {
  readonly kind: DriverKind;
  open(file: string, options: { readonly readonly: boolean; readonly timeoutMs: number }): Db;
}

/** The runtime the driver is chosen for (injected in tests). */
export interface RuntimeInfo {
  readonly node: string;
  /** NODE_MODULE_VERSION, the native ABI. */
  readonly abi: string;
  readonly electron?: string;
}

/** How to load each binding (injected in tests; the defaults `require` the real modules). */
export interface DriverLoaders {
  readonly betterSqlite3: () => BetterSqlite3Constructor;
  readonly nodeSqlite: () => NodeSqliteModule;
}

type BetterSqlite3Constructor = new (file: string, options: Record<string, unknown>) => Db;

const load = createRequire(__filename);

export const defaultLoaders: DriverLoaders = {
  // A static import, so that esbuild bundles better-sqlite3's JavaScript into the extension; its
  // native addon is only loaded when the first database is constructed.
  betterSqlite3: () => BetterSqlite3 as unknown as BetterSqlite3Constructor,
  nodeSqlite: () => load('node:sqlite') as NodeSqliteModule,
};

/**
 * The addon the build ships next to the bundle for this runtime's ABI
 * (`dist/native/better_sqlite3.abi<NODE_MODULE_VERSION>.node`), if any. Bundled code cannot find
 * the addon through node_modules, so the build always copies one there; in an unbundled run (tests
 * under tsx) there is none and better-sqlite3 finds its own.
 */
export function bundledNativeBinding(abi = process.versions.modules, dir = __dirname): string | undefined {
  const path = join(dir, 'native', `better_sqlite3.abi${abi}.node`);
  return existsSync(path) ? path : undefined;
}

export function currentRuntime(): RuntimeInfo {
  const electron = process.versions['electron'];
  return { node: process.version, abi: process.versions.modules, ...(electron ? { electron } : {}) };
}

/**
 * Chooses the SQLite binding: better-sqlite3 where its native addon loads (Node 20 for the CLI,
 * tests and code-server; an Electron build passed as `nativeBinding`), else `node:sqlite` (VS Code
 * desktop builds whose Electron ships Node ≥ 22.13), else an error that says what was tried and
 * what to do — never a bare stack trace. The probe opens an in-memory database, because a
 * mismatched addon only fails when first used (NODE_MODULE_VERSION errors).
 */
export function selectDriver(
  nativeBinding = bundledNativeBinding(),
  runtime: RuntimeInfo = currentRuntime(),
  loaders: DriverLoaders = defaultLoaders,
): SqliteDriver {
  const attempts: string[] = [];
  try {
    const Database = loaders.betterSqlite3();
    const binding = nativeBinding ? { nativeBinding } : {};
    new Database(':memory:', binding).close();
    return {
      kind: 'better-sqlite3',
      open: (file, o) => new Database(file, { ...binding, readonly: o.readonly, timeout: o.timeoutMs }),
    };
  } catch (error) {
    attempts.push(`better-sqlite3: ${firstLine(error)}`);
  }
  try {
    const sqlite = loaders.nodeSqlite();
    return { kind: 'node:sqlite', open: (file, o) => nodeSqliteDb(sqlite, file, o) };
  } catch (error) {
    attempts.push(`node:sqlite: ${firstLine(error)}`);
  }
  throw new Error(noDriverMessage(runtime, attempts));
}

function noDriverMessage(runtime: RuntimeInfo, attempts: readonly string[]): string {
  const where = runtime.electron
    ? `Electron ${runtime.electron} (Node ${runtime.node}, ABI ${runtime.abi})`
    : `Node ${runtime.node} (ABI ${runtime.abi})`;
  return (
    `Credit Lens cannot open its SQLite index in ${where}. Tried ${attempts.join('; ')}. ` +
    `Install the Credit Lens build for your platform, or use a VS Code whose runtime provides node:sqlite (Node ≥ 22.13); ` +
    `the CLI (credit-lens) runs on Node 20 and later.`
  );
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
