import type { BindValue, Db, Statement } from './database';

/**
 * Inserts many rows of one table with multi-row `INSERT … VALUES (…), (…)` statements, prepared
 * once per chunk size. One statement call per chunk instead of per row cuts the per-call cost that
 * dominates bulk loads of small rows (messages, roster entries, credit). Columns named in
 * `sharedColumns` take the same value in every row of a call: bound once per statement instead
 * of once per row.
 */
export class MultiInsert {
  private readonly statements = new Map<number, Statement>();
  private pending: BindValue[] = [];

  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly maxRows = 32,
    private readonly sharedColumns: readonly string[] = [],
  ) {}

  /**
   * Inserts `rowCount` rows whose values are laid out row-major in `values` (the per-row columns
   * only; `shared` holds the values of the shared columns, in their order). Returns the rowid of
   * the first inserted row: rowids of one statement are consecutive, since the table has a single
   * writer and `INTEGER PRIMARY KEY` assigns max + 1 to each row.
   */
  run(values: readonly BindValue[], rowCount: number, shared: readonly BindValue[] = []): number {
    const width = this.columns.length;
    let first = -1;
    for (let start = 0; start < rowCount; start += this.maxRows) {
      const rows = Math.min(this.maxRows, rowCount - start);
      const chunk = values.slice(start * width, (start + rows) * width);
      const last = Number(this.statement(rows).run(...shared, ...chunk).lastInsertRowid);
      if (first === -1) first = last - rows + 1;
    }
    return first;
  }

  /**
   * Queues one row (the per-row columns, in order) for {@link flush}, writing a full chunk as soon
   * as one is queued: rows of many small owners (an episode's roster) go in few statements.
   */
  add(...row: BindValue[]): void {
    for (const value of row) this.pending.push(value);
    if (this.pending.length >= this.columns.length * this.maxRows) this.flush();
  }

  /** Writes the queued rows. Must run inside the transaction that queued them. */
  flush(): void {
    if (this.pending.length === 0) return;
    const values = this.pending;
    this.pending = [];
    this.run(values, values.length / this.columns.length);
  }

  /** Forgets the queued rows (their transaction was rolled back). */
  discard(): void {
    this.pending = [];
  }

  private statement(rows: number): Statement {
    let statement = this.statements.get(rows);
    if (!statement) {
      const statementSql = insertSql(this.table, this.sharedColumns, this.columns, rows);
      statement = this.db.prepare(statementSql);
      this.statements.set(rows, statement);
    }
    return statement;
  }
}

/**
 * `INSERT INTO table (columns…) VALUES (…), …` for `rows` rows; with shared columns,
 * `INSERT INTO table (shared…, columns…) SELECT ?…, v.* FROM (VALUES (…), …) AS v`, whose first
 * `?` (the shared values, bound first) come before the rows' in the text, as positional parameters
 * are numbered. Rows are inserted in the order of the VALUES list.
 */
function insertSql(table: string, shared: readonly string[], columns: readonly string[], rows: number): string {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const values = `VALUES ${Array<string>(rows).fill(tuple).join(', ')}`;
  if (shared.length === 0) return `INSERT INTO ${table} (${columns.join(', ')}) ${values}`;
  const sharedValues = shared.map(() => '?').join(', ');
  return `INSERT INTO ${table} (${[...shared, ...columns].join(', ')}) SELECT ${sharedValues}, v.* FROM (${values}) AS v`;
}
