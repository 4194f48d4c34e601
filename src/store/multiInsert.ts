import type { BindValue, Db, Statement } from './database';

/**
 * Inserts many rows of one table with multi-row `INSERT … VALUES (…), (…)` statements, prepared
 * once per chunk size. One statement call per chunk instead of per row cuts the per-call cost that
 * dominates bulk loads of small rows (messages, roster entries).
 */
export class MultiInsert {
  private readonly statements = new Map<number, Statement>();
  private readonly placeholders: string;

  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly maxRows = 32,
  ) {
    this.placeholders = `(${columns.map(() => '?').join(', ')})`;
  }

  /**
   * Inserts `rowCount` rows whose values are laid out row-major in `values`. Returns the rowid of
   * the first inserted row: rowids of one statement are consecutive, since the table has a single
   * writer and `INTEGER PRIMARY KEY` assigns max + 1 to each row.
   */
  run(values: readonly BindValue[], rowCount: number): number {
    const width = this.columns.length;
    let first = -1;
    for (let start = 0; start < rowCount; start += this.maxRows) {
      const rows = Math.min(this.maxRows, rowCount - start);
      const chunk = values.slice(start * width, (start + rows) * width);
      const last = Number(this.statement(rows).run(...chunk).lastInsertRowid);
      if (first === -1) first = last - rows + 1;
    }
    return first;
  }

  private statement(rows: number): Statement {
    let statement = this.statements.get(rows);
    if (!statement) {
      const sql = `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${Array(rows).fill(this.placeholders).join(', ')}`;
      statement = this.db.prepare(sql);
      this.statements.set(rows, statement);
    }
    return statement;
  }
}
