import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { defaultSplit, type SplitChoice } from '../../core/split';
import { advantagesFor } from '../../credit/signals/advantageConventions';
import { CreditInputRepository } from '../../store/creditInputRepository';
import { DashboardRepository } from '../../store/dashboardRepository';
import type { Db } from '../../store/database';
import { IndexStore } from '../../store/indexStore';
import { RunProducerRepository } from '../../store/runProducerRepository';
import { SignalRepository, type AdvantageSampleRow } from '../../store/signalRepository';
import { chooseAdvantageConvention } from '../credit/advantageConvention';
import { NoIndexError } from '../indexJob';
import { findIndexLocation } from '../indexLocation';
import { writeParquetTable, type Cell, type ParquetColumn, type ParquetKind } from './parquetTable';

/** The signals a trainer can be given per sample (docs/advantages-export.md). */
export const advantageSignals = ['shared', 'loo', 'shapley'] as const;
export type AdvantageSignal = (typeof advantageSignals)[number];

export interface AdvantagesExportOptions {
  readonly root: string;
  readonly dbPath?: string;
  readonly run?: string;
  readonly signal: AdvantageSignal;
  readonly format: 'jsonl' | 'parquet';
  /** The file to write; JSONL without one goes to `write`. Parquet needs one. */
  readonly out?: string;
  readonly split?: SplitChoice;
}

/** One exported row: a (sample, agent) keyed by the trainer's sample identity (docs/advantages-export.md §2). */
export interface AdvantageExportRow {
  readonly run: string;
  readonly episode_id: string;
  readonly step: number | null;
  readonly group_id: string | null;
  readonly uid: string | null;
  readonly rollout_index: number | null;
  readonly group_position: number | null;
  readonly source: string;
  readonly format: string;
  readonly line: number;
  readonly row: number;
  readonly agent: string;
  readonly signal: AdvantageSignal;
  readonly reward: number | null;
  readonly credit: number | null;
  readonly credit_status: string;
  readonly credit_source: string | null;
  readonly advantage: number | null;
  readonly advantage_convention: string;
}

export interface AdvantagesExportResult {
  readonly rows: number;
  readonly runs: readonly { readonly run: string; readonly rows: number; readonly convention: string }[];
}

const columnKinds: Readonly<Record<keyof AdvantageExportRow, ParquetKind>> = {
  run: 'string',
  episode_id: 'string',
  step: 'int64',
  group_id: 'string',
  uid: 'string',
  rollout_index: 'int32',
  group_position: 'int32',
  source: 'string',
  format: 'string',
  line: 'int64',
  row: 'int64',
  agent: 'string',
  signal: 'string',
  reward: 'double',
  credit: 'double',
  credit_status: 'string',
  credit_source: 'string',
  advantage: 'double',
  advantage_convention: 'string',
};

/** The Parquet columns, in the documented order. */
export const advantageColumns: readonly ParquetColumn<AdvantageExportRow>[] = Object.entries(columnKinds).map(
  ([name, kind]) => ({ name, kind, value: (row: AdvantageExportRow): Cell => row[name as keyof AdvantageExportRow] }),
);

/**
 * `credit-lens advantages`: one row per (sample, agent) of every run (or `run`) with the GRPO
 * advantage the trainer would use under `signal` — the shared reward's, computed per (step, group)
 * in the run's convention (credit-methods.md §3.15), or the one the credit pass stored with the
 * agent's `loo` / `shapley` credit of its latest parameter set — with the reward, the credit and its
 * status and source. Rows stream to a JSONL file (or `write`) or a Parquet file. A run without the
 * method's credit is an error that says which command computes it.
 */
export async function exportAdvantages(
  options: AdvantagesExportOptions,
  write: (line: string) => void,
): Promise<AdvantagesExportResult> {
  const location = findIndexLocation(options.root, options.dbPath);
  if (!location)
    throw new NoIndexError(`no index for ${options.root}; run \`credit-lens index ${options.root}\` first`);
  if (options.format === 'parquet' && !options.out) throw new Error('--format parquet needs --out FILE');
  const store = IndexStore.open(location.path, { readonly: true });
  try {
    const runs = new CreditInputRepository(store.db)
      .runs()
      .filter((r) => options.run === undefined || r.name === options.run || r.root === options.run);
    if (options.run !== undefined && runs.length === 0)
      throw new Error(`no run named "${options.run}" in ${options.root}`);
    const plans = runs.map((run) => planRun(store.db, run, options));
    const counts = plans.map(() => 0);
    function* rows(): Generator<AdvantageExportRow> {
      for (const [k, plan] of plans.entries())
        for (const row of plan.rows()) {
          counts[k] = (counts[k] ?? 0) + 1;
          yield row;
        }
    }
    const total =
      options.format === 'parquet'
        ? writeParquetTable(options.out ?? '', advantageColumns, rows())
        : await writeJsonl(rows(), options.out, write);
    return { rows: total, runs: plans.map((p, k) => ({ run: p.run, rows: counts[k] ?? 0, convention: p.convention })) };
  } finally {
    store.close();
  }
}

interface RunPlan {
  readonly run: string;
  readonly convention: string;
  readonly rows: () => Generator<AdvantageExportRow>;
}

/** What one run exports: its convention and its rows (checked before any row is written). */
function planRun(db: Db, run: { runId: number; name: string }, options: AdvantagesExportOptions): RunPlan {
  const signals = new SignalRepository(db);
  const split = options.split ?? defaultSplit;
  if (options.signal === 'shared') {
    const choice = chooseAdvantageConvention(run.name, new RunProducerRepository(db).producer(run.runId));
    const advantages = (v: Float64Array): Float64Array => advantagesFor(choice.convention, v);
    const convention = choice.convention.name;
    return {
      run: run.name,
      convention,
      rows: () => sharedRows(signals.advantageRows(run.runId, split), run.name, convention, advantages),
    };
  }
  const hash = new DashboardRepository(db).latestParams(run.runId, options.signal);
  if (hash === undefined)
    throw new Error(
      `no ${options.signal} credit is stored for run "${run.name}": compute it with \`credit-lens credit ${options.root} --method ${options.signal}\``,
    );
  const convention = signals.paramsAdvantage(run.runId, options.signal, hash) ?? 'unknown';
  const credit = { method: options.signal, hash };
  return {
    run: run.name,
    convention,
    rows: () => creditRows(signals.advantageRows(run.runId, split, credit), run.name, options.signal, convention),
  };
}

/** The stored credit and its advantage, per row; a row without credit says why in `credit_status`. */
function* creditRows(
  rows: Iterable<AdvantageSampleRow>,
  run: string,
  signal: AdvantageSignal,
  convention: string,
): Generator<AdvantageExportRow> {
  for (const [row, position] of withPositions(rows))
    yield {
      ...identity(row, run, position),
      signal,
      credit: row.value,
      credit_status: row.status ?? row.problem ?? 'not computed',
      credit_source: row.creditSource,
      advantage: row.value === null ? null : row.advantage,
      advantage_convention: convention,
    };
}

/** The team reward as every agent's signal, its advantage computed over each (step, group) of the run. */
function* sharedRows(
  rows: Iterable<AdvantageSampleRow>,
  run: string,
  convention: string,
  advantages: (values: Float64Array) => Float64Array,
): Generator<AdvantageExportRow> {
  let group: [AdvantageSampleRow, number | null][] = [];
  const flush = function* (): Generator<AdvantageExportRow> {
    const episodes = [...new Set(group.map(([r]) => r.episodeId))];
    const rewards = new Map(group.map(([r]) => [r.episodeId, r.outcome ?? NaN]));
    const values = advantages(Float64Array.from(episodes, (id) => rewards.get(id) ?? NaN));
    const of = new Map(episodes.map((id, k) => [id, values[k] ?? NaN]));
    for (const [row, position] of group) {
      const a = row.groupId === null ? NaN : (of.get(row.episodeId) ?? NaN);
      yield {
        ...identity(row, run, position),
        signal: 'shared',
        credit: row.outcome,
        credit_status: row.outcome === null ? 'no reward logged' : 'exact',
        credit_source: row.outcome === null ? null : 'logged',
        advantage: Number.isFinite(a) ? a : null,
        advantage_convention: convention,
      };
    }
    group = [];
  };
  for (const entry of withPositions(rows)) {
    const last = group[group.length - 1]?.[0];
    if (last && (last.step !== entry[0].step || last.groupId !== entry[0].groupId)) yield* flush();
    group.push(entry);
  }
  yield* flush();
}

/** Each row with its episode's 0-based position in its (step, group) by index order (null without a group). */
function* withPositions(rows: Iterable<AdvantageSampleRow>): Generator<[AdvantageSampleRow, number | null]> {
  let key = '';
  let episode = -1;
  let position = -1;
  for (const row of rows) {
    const rowKey = `${String(row.step)}\u0000${row.groupId ?? ''}`;
    if (rowKey !== key) {
      key = rowKey;
      position = -1;
      episode = -1;
    }
    if (row.episodeId !== episode) {
      episode = row.episodeId;
      position++;
    }
    yield [row, row.groupId === null ? null : position];
  }
}

function identity(
  row: AdvantageSampleRow,
  run: string,
  position: number | null,
): Pick<
  AdvantageExportRow,
  | 'run'
  | 'episode_id'
  | 'step'
  | 'group_id'
  | 'uid'
  | 'rollout_index'
  | 'group_position'
  | 'source'
  | 'format'
  | 'line'
  | 'row'
  | 'agent'
  | 'reward'
> {
  return {
    run,
    episode_id: row.externalId,
    step: row.step,
    group_id: row.groupId,
    uid: row.uid === null ? null : String(row.uid),
    rollout_index: row.sampleIdx,
    group_position: position,
    source: row.source,
    format: row.format,
    line: row.line,
    // The record's 0-based position in its file: TRL's row of completions_*.parquet, a JSONL line index.
    row: row.line - 1,
    agent: row.agent,
    reward: row.outcome,
  };
}

/** Streams rows as JSON lines to `out` (waiting on the stream's back-pressure) or through `write`. */
async function writeJsonl(
  rows: Iterable<AdvantageExportRow>,
  out: string | undefined,
  write: (line: string) => void,
): Promise<number> {
  let n = 0;
  if (!out) {
    for (const row of rows) {
      write(JSON.stringify(row));
      n++;
    }
    return n;
  }
  const stream = createWriteStream(out);
  for (const row of rows) {
    if (!stream.write(`${JSON.stringify(row)}\n`)) await once(stream, 'drain');
    n++;
  }
  stream.end();
  await once(stream, 'finish');
  return n;
}
