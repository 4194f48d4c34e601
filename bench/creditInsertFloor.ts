import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/store/database';
import { indexCopy, removeIndexFiles } from './gradedValues';

/** One measurement: the pass's credit rows inserted again, with the table and these indexes. */
export interface InsertFloorRow {
  readonly indexes: readonly string[];
  readonly rows: number;
  readonly seconds: number;
  /** Episodes per second this insert alone allows (the pass's episodes ÷ seconds). */
  readonly episodesPerSecond: number;
}

/**
 * The least SQLite needs to store a credit pass's rows in today's `credit_value` table (migration 0023): on a copy of an
 * index holding one pass's credit (`db`), every row is inserted again in one transaction from a
 * copy of the table, in credit_id order, first into the bare table and then with the table's
 * indexes added one at a time (their definitions read from the schema), and finally
 * `credit_agent_sort` built by CREATE INDEX over the stored rows instead; each insert is the median
 * of `repeat`. No reading, no engine, no
 * commits but one: what is left is the row layout's own cost, the ceiling of any pass that writes it.
 */
export function creditInsertFloor(
  db: string,
  repeat = 3,
): { readonly steps: InsertFloorRow[]; readonly buildSortSeconds: number } {
  const copy = indexCopy(db, 'floor');
  const d = openDatabase(copy);
  try {
    const indexes = d
      .prepare<{ name: string; sql: string }>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'credit_value' AND sql IS NOT NULL ORDER BY name = 'credit_agent_sort', rowid",
      )
      .all();
    const episodes = d.prepare<{ n: number }>('SELECT count(DISTINCT episode_id) AS n FROM credit_value').get()?.n ?? 0;
    d.exec('CREATE TABLE floor_copy AS SELECT * FROM credit_value');
    for (const index of indexes) d.exec(`DROP INDEX ${index.name}`);
    const steps: InsertFloorRow[] = [];
    const kept: string[] = [];
    const insertAgain = (): void => {
      const times: number[] = [];
      for (let round = 0; round < repeat; round++) {
        d.exec('DELETE FROM credit_value');
        const started = performance.now();
        d.exec('BEGIN; INSERT INTO credit_value SELECT * FROM floor_copy ORDER BY credit_id; COMMIT');
        times.push((performance.now() - started) / 1000);
      }
      const seconds = median(times);
      const rows = d.prepare<{ n: number }>('SELECT count(*) AS n FROM credit_value').get()?.n ?? 0;
      steps.push({ indexes: [...kept], rows, seconds, episodesPerSecond: episodes / seconds });
    };
    insertAgain();
    for (const index of indexes) {
      d.exec('DELETE FROM credit_value');
      d.exec(index.sql);
      kept.push(index.name);
      insertAgain();
    }
    const sort = indexes.find((i) => i.name === 'credit_agent_sort');
    let buildSortSeconds = Number.NaN;
    if (sort) {
      d.exec('DROP INDEX credit_agent_sort');
      const started = performance.now();
      d.exec(sort.sql);
      buildSortSeconds = (performance.now() - started) / 1000;
    }
    return { steps, buildSortSeconds };
  } finally {
    d.close();
    removeIndexFiles(copy);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The measurement as a Markdown table. */
export function formatInsertFloor(result: ReturnType<typeof creditInsertFloor>): string {
  const lines = ['| indexes on credit_value | rows | insert s | episodes/s it allows |', '|---|---|---|---|'];
  for (const s of result.steps)
    lines.push(
      `| ${s.indexes.length === 0 ? '(the table alone)' : `+ ${s.indexes.at(-1) ?? ''}`} | ${s.rows.toLocaleString('en-US')} | ${s.seconds.toFixed(2)} | ${Math.round(s.episodesPerSecond).toLocaleString('en-US')} |`,
    );
  lines.push(`\nCREATE INDEX credit_agent_sort over the stored rows instead: ${result.buildSortSeconds.toFixed(2)} s`);
  return lines.join('\n');
}
