import { createRequire } from 'node:module';
import type { NodeSqliteDatabase, NodeSqliteModule, NodeSqliteStatement } from '../../../src/store/nodeSqliteDb';
import { defaultLoaders, type DriverLoaders } from '../../../src/store/sqliteDriver';

/** A better-sqlite3 whose addon was built for Node 20 (ABI 115), as desktop VS Code would see it. */
export const abiMismatch = function (): never {
  throw new Error(
    'The module better_sqlite3.node was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 136.\n    at stack',
  );
} as unknown as ReturnType<DriverLoaders['betterSqlite3']>;

/** node:sqlite's DatabaseSync API, played by better-sqlite3 (Node 20 has no node:sqlite). */
export function fakeNodeSqlite(): NodeSqliteModule {
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

function loads(load: () => void): boolean {
  try {
    load();
    return true;
  } catch {
    return false;
  }
}

/** This runtime has node:sqlite (Node ≥ 22.5). */
export const hasNodeSqlite = loads(() => defaultLoaders.nodeSqlite());

/** better-sqlite3's addon loads in this runtime (it was built for this Node's ABI). */
export const betterSqlite3Loads = loads(() => {
  const Database = defaultLoaders.betterSqlite3();
  new Database(':memory:', {}).close();
});

/** Loaders that open node:sqlite: the real one where this Node has it, else {@link fakeNodeSqlite}. */
export const nodeSqliteLoaders: DriverLoaders = {
  betterSqlite3: () => abiMismatch,
  nodeSqlite: hasNodeSqlite ? defaultLoaders.nodeSqlite : fakeNodeSqlite,
};
