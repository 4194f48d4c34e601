import { isDeepStrictEqual } from 'node:util';
import { InfluenceService } from '../src/engine/influence/influenceService';
import type { InfluenceGraphView } from '../src/protocol/influence';
import { openDatabase, type Db } from '../src/store/database';

// `node dist/bench.js influence-live --db COPY.sqlite [--from STEP] [--appends N]`: the Run Dashboard's
// influence graph over steps [STEP, last] during a live tail, per index revision that appends one
// step: read again from the start by a service made for the request (as before issue 17's
// follow-up), and by the panel's kept service, which adds only the appended episodes. Each
// revision copies the episodes of the run's last step as a new step inside a savepoint, rolled
// back at the end, so the copy is left as it was (it is migrated, so never pass the original).
// Both graphs are compared on every revision. Figures are user-CPU milliseconds of this process.

/** The tables of an episode's rows that the influence graph reads, besides `episode` itself. */
const episodeTables = ['episode_agent', 'coalition_value', 'counterfactual', 'influence_edge', 'routing', 'label'];

export interface InfluenceLiveResult {
  readonly runId: number;
  readonly fromStep: number | null;
  readonly appendedPerStep: number;
  readonly initial: { readonly episodes: number; readonly userMs: number };
  readonly rebuiltUserMs: readonly number[];
  readonly keptUserMs: readonly number[];
  readonly keptEpisodesRead: readonly number[];
  readonly episodes: readonly number[];
}

/** Runs the measurement on the index copy named by `--db`. */
export async function influenceLive(argv: readonly string[]): Promise<InfluenceLiveResult> {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at > 0 ? argv[at + 1] : undefined;
  };
  const dbPath = value('--db');
  if (!dbPath) throw new Error('influence-live needs --db <a copy of an index>');
  const appends = Number(value('--appends') ?? 5);
  const db = openDatabase(dbPath);
  try {
    const run = db
      .prepare<{ runId: number; lastStep: number }>(
        'SELECT run_id AS runId, max(train_step) AS lastStep FROM episode GROUP BY run_id ORDER BY count(*) DESC LIMIT 1',
      )
      .get();
    if (!run) throw new Error(`${dbPath} has no episodes`);
    const from = value('--from');
    const fromStep = from === undefined ? null : Number(from);
    const kept = new InfluenceService(db);
    const initial = await timed(() => kept.run(run.runId, fromStep, null));
    const result = {
      runId: run.runId,
      fromStep,
      appendedPerStep: 0,
      initial: { episodes: initial.value.episodes, userMs: initial.userMs },
      rebuiltUserMs: [] as number[],
      keptUserMs: [] as number[],
      keptEpisodesRead: [] as number[],
      episodes: [] as number[],
    };
    db.exec('SAVEPOINT influence_live');
    try {
      for (let i = 1; i <= appends; i++) {
        result.appendedPerStep = appendStep(db, run.runId, run.lastStep, run.lastStep + i);
        const rebuilt = await timed(() => new InfluenceService(db).run(run.runId, fromStep, null));
        const incremental = await timed(() => kept.run(run.runId, fromStep, null));
        if (!isDeepStrictEqual(rebuilt.value, incremental.value))
          throw new Error(`revision ${String(i)}: the kept graph differs from the rebuilt one`);
        result.rebuiltUserMs.push(rebuilt.userMs);
        result.keptUserMs.push(incremental.userMs);
        result.keptEpisodesRead.push(kept.lastPass.episodesRead);
        result.episodes.push(incremental.value.episodes);
      }
    } finally {
      db.exec('ROLLBACK TO influence_live');
      db.exec('RELEASE influence_live');
    }
    return result;
  } finally {
    db.close();
  }
}

async function timed(read: () => Promise<InfluenceGraphView>): Promise<{ value: InfluenceGraphView; userMs: number }> {
  const start = process.cpuUsage();
  const value = await read();
  return { value, userMs: process.cpuUsage(start).user / 1000 };
}

/** Copies the run's episodes at step `source` (with their rows) as new episodes at step `step`; returns how many. */
function appendStep(db: Db, runId: number, source: number, step: number): number {
  const columns = (table: string) => db.prepare<{ name: string; pk: number }>(`PRAGMA table_info(${table})`).all();
  const episodeColumns = columns('episode').map((c) => c.name);
  const select = episodeColumns.map((c) =>
    c === 'episode_id' ? 'NULL' : c === 'train_step' ? '?' : c === 'external_id' ? "external_id || '+' || ?" : c,
  );
  const copyEpisode = db.prepare(
    `INSERT INTO episode (${episodeColumns.join(', ')}) SELECT ${select.join(', ')} FROM episode WHERE episode_id = ?`,
  );
  const copyRows = episodeTables.map((table) => {
    const cols = columns(table);
    // A table's own integer key (cf_id, edge_id, label_id) is given anew; the episode's is the copy's.
    const keys = cols.filter((c) => c.pk > 0);
    const own = keys.length === 1 && keys[0]?.name !== 'episode_id' ? keys[0]?.name : undefined;
    const values = cols.map((c) => (c.name === 'episode_id' ? '?' : c.name === own ? 'NULL' : c.name));
    return db.prepare(
      `INSERT INTO ${table} (${cols.map((c) => c.name).join(', ')}) SELECT ${values.join(', ')} FROM ${table} WHERE episode_id = ?`,
    );
  });
  const ids = db
    .prepare<{ id: number }>(
      'SELECT episode_id AS id FROM episode WHERE run_id = ? AND train_step = ? ORDER BY episode_id',
    )
    .all(runId, source);
  for (const { id } of ids) {
    const copy = Number(copyEpisode.run(step, String(step), id).lastInsertRowid);
    for (const rows of copyRows) rows.run(copy, id);
  }
  return ids.length;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

/** The result as a few lines: medians per revision, and each revision's figures. */
export function formatInfluenceLive(r: InfluenceLiveResult): string {
  const ms = (x: number): string => x.toFixed(1);
  return [
    `Dashboard influence graph, run ${String(r.runId)}, steps ${r.fromStep === null ? 'all' : `${String(r.fromStep)}..last`}:`,
    `  first read: ${String(r.initial.episodes)} episodes, ${ms(r.initial.userMs)} ms user CPU`,
    `  per revision (one step of ${String(r.appendedPerStep)} episodes appended), median of ${String(r.keptUserMs.length)}:`,
    `    read again:   ${ms(median(r.rebuiltUserMs))} ms user CPU`,
    `    kept + added: ${ms(median(r.keptUserMs))} ms user CPU (${String(median(r.keptEpisodesRead))} episodes read)`,
    `  each revision (episodes shown, read again / kept ms): ${r.episodes
      .map((n, i) => `${String(n)}: ${ms(r.rebuiltUserMs[i] ?? NaN)} / ${ms(r.keptUserMs[i] ?? NaN)}`)
      .join(', ')}`,
  ].join('\n');
}
