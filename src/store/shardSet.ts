import { existsSync } from 'node:fs';
import { openDatabase, type BindValue, type Db } from './database';
import { schemaVersionOf } from './migrate';

/**
 * SQLite's default SQLITE_MAX_ATTACHED: a connection holds its main database and at most 10
 * attached ones (the binding is compiled with the default; 125 is SQLite's ceiling).
 */
export const maxAttached = 10;

/** An index that could not be read as a shard: its file and why. */
export interface ShardProblem {
  readonly path: string;
  readonly reason: string;
}

/** Named parameters shared by every shard's part of a query. */
export type ShardParams = Readonly<Record<string, BindValue>>;

/**
 * Builds one shard's part of a query: a SELECT over the tables of `schema` (`main`, `s1`, …,
 * always written `${schema}.table`). Its rows get a `shard` column, the shard's position.
 */
export type ShardQuery = (schema: string) => string;

/**
 * Several index files (one per shard of a run's files, each built where its files live) read as
 * one: each connection opens one shard read-only and ATTACHes up to {@link maxAttached} more, and a
 * query runs as one `UNION ALL` over the attached shards. Past 11 shards, further connections hold
 * the rest and their rows follow in shard order; aggregates must then be additive (sums and
 * counts), combined by the caller. Every shard is checked before it is attached: a missing,
 * corrupt or incompatible index is reported by {@link open} and left out, never fatal to the rest.
 */
export class ShardSet {
  private constructor(
    /** The readable shards' paths, in the order given: a row's `shard` indexes this list. */
    readonly paths: readonly string[],
    private readonly groups: readonly { readonly db: Db; readonly first: number; readonly schemas: string[] }[],
  ) {}

  /** Opens the readable shards of `paths` (duplicates once); `problems` names each one left out. */
  static open(paths: readonly string[]): { shards: ShardSet; problems: ShardProblem[] } {
    const problems: ShardProblem[] = [];
    const readable = [...new Set(paths)].filter((path) => {
      const reason = unreadableReason(path);
      if (reason !== undefined) problems.push({ path, reason });
      return reason === undefined;
    });
    const groups = [];
    for (let first = 0; first < readable.length; first += maxAttached + 1) {
      const members = readable.slice(first, first + maxAttached + 1);
      groups.push(connect(members, first));
    }
    return { shards: new ShardSet(readable, groups), problems };
  }

  /** How many shards are read. */
  get size(): number {
    return this.paths.length;
  }

  /**
   * Every row of `query` over every shard, streamed in shard order, each with its `shard` (index
   * into {@link paths}). `suffix` is appended to each connection's UNION ALL (e.g. a GROUP BY over
   * an outer `SELECT … FROM (${union})` is the caller's: see {@link aggregate}).
   */
  *rows<Row>(query: ShardQuery, params: ShardParams = {}): Generator<Row & { shard: number }> {
    for (const group of this.groups) {
      const union = group.schemas
        .map((schema, i) => `SELECT ${String(group.first + i)} AS shard, * FROM (${query(schema)})`)
        .join('\nUNION ALL\n');
      yield* this.named(group, () => group.db.prepare<Row & { shard: number }>(union).iterate(params));
    }
  }

  /**
   * `outer(union)` on each connection, where `union` is the UNION ALL of `query` over its shards:
   * one aggregate per connection (one row set for up to 11 shards), to be combined by the caller.
   */
  *aggregate<Row>(query: ShardQuery, outer: (union: string) => string, params: ShardParams = {}): Generator<Row> {
    for (const group of this.groups) {
      // Each part in its own subquery: a part may start with WITH, which a compound SELECT cannot.
      const union = group.schemas.map((schema) => `SELECT * FROM (${query(schema)})`).join('\nUNION ALL\n');
      yield* this.named(group, () => group.db.prepare<Row>(outer(union)).iterate(params));
    }
  }

  /** The rows of `read`; an error (a shard damaged past its first pages) names the connection's files. */
  private *named<Row>(group: (typeof this.groups)[number], read: () => Iterable<Row>): Generator<Row> {
    try {
      yield* read();
    } catch (error) {
      const files = this.paths.slice(group.first, group.first + group.schemas.length).join(', ');
      throw new Error(`reading ${files}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  close(): void {
    for (const group of this.groups) group.db.close();
  }
}

/** Opens the first shard read-only and attaches the others (read-only too: they share its open flags). */
function connect(members: readonly string[], first: number): { db: Db; first: number; schemas: string[] } {
  const [main, ...attached] = members;
  const db = openDatabase(main ?? '', { readonly: true });
  const schemas = ['main'];
  try {
    for (const [i, path] of attached.entries()) {
      const schema = `s${String(i + 1)}`;
      db.prepare('ATTACH DATABASE ? AS ' + schema).run(path);
      schemas.push(schema);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, first, schemas };
}

/** Why `path` cannot be read as a shard, or undefined when it can. */
function unreadableReason(path: string): string | undefined {
  // Checked first: SQLite would report only "unable to open database file".
  if (!existsSync(path)) return 'no such index file';
  let db: Db | undefined;
  try {
    // Another schema's index is refused by the read-only open itself (IndexSchemaError).
    db = openDatabase(path, { readonly: true });
    if (schemaVersionOf(db) === 0) return 'not a Credit Lens index (no schema)';
    db.prepare('SELECT count(*) FROM run').get(); // a corrupt file fails on its first read
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}
