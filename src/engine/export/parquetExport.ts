import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ExportRepository,
  type ExportCreditRow,
  type ExportEpisodeRow,
  type ExportFlagRow,
  type ExportMessageRow,
} from '../../store/exportRepository';
import type { ShardSet } from '../../store/shardSet';
import { writeParquetTable, type Cell, type ParquetColumn, type ParquetKind } from './parquetTable';

/** A column read straight from the row field of the same name. */
function field<Row>(name: keyof Row & string, kind: ParquetKind): ParquetColumn<Row> {
  return { name, kind, value: (row) => row[name] as Cell };
}

/** The `shard` column: the path of the index the row comes from. */
function shardColumn<Row extends { shard: number }>(paths: readonly string[]): ParquetColumn<Row> {
  return { name: 'shard', kind: 'string', value: (row) => paths[row.shard] ?? null };
}

const episodeColumns: readonly ParquetColumn<ExportEpisodeRow>[] = [
  field('run', 'string'),
  field('run_root', 'string'),
  field('episode_id', 'string'),
  field('task_id', 'string'),
  field('group_id', 'string'),
  field('sample_idx', 'int32'),
  field('step', 'int64'),
  field('split', 'string'),
  field('reward', 'double'),
  field('final_answer', 'string'),
  field('final_agent', 'string'),
  field('n_agents', 'int32'),
  field('n_messages', 'int32'),
  field('n_tokens', 'int64'),
  field('source', 'string'),
  field('format', 'string'),
  field('line', 'int64'),
  field('byte_offset', 'int64'),
  field('byte_length', 'int64'),
];

const messageColumns: readonly ParquetColumn<ExportMessageRow>[] = [
  field('run', 'string'),
  field('episode_id', 'string'),
  field('step', 'int64'),
  field('seq', 'int32'),
  field('agent', 'string'),
  field('turn', 'int32'),
  field('role', 'string'),
  field('channel', 'string'),
  field('n_chars', 'int64'),
  field('n_tokens', 'int64'),
  field('has_token_ids', 'boolean'),
];

const creditColumns: readonly ParquetColumn<ExportCreditRow>[] = [
  field('run', 'string'),
  field('scope_kind', 'string'),
  field('scope_id', 'string'),
  field('episode_id', 'string'),
  field('step', 'int64'),
  field('group_id', 'string'),
  field('reward', 'double'),
  field('agent', 'string'),
  field('message_seq', 'int32'),
  field('method', 'string'),
  field('value', 'double'),
  field('stderr', 'double'),
  field('ci_low', 'double'),
  field('ci_high', 'double'),
  field('advantage', 'double'),
  field('n', 'int64'),
  field('status', 'string'),
  field('source', 'string'),
  field('intervention', 'string'),
  field('params_hash', 'string'),
  field('latest', 'boolean'),
  field('computed_at', 'string'),
];

const flagColumns: readonly ParquetColumn<ExportFlagRow>[] = [
  field('run', 'string'),
  field('scope_kind', 'string'),
  field('scope_id', 'string'),
  field('agent', 'string'),
  field('kind', 'string'),
  field('score', 'double'),
  field('evidence_json', 'json'),
  field('computed_at', 'string'),
];

/** One written file: its name, rows and size. */
export interface ParquetFileWritten {
  readonly file: string;
  readonly rows: number;
  readonly bytes: number;
}

/**
 * Writes the episodes, messages, credit and flags of every shard to `<outDir>/episodes.parquet`,
 * `messages.parquet`, `credit.parquet` and `flags.parquet` (docs/beyond-one-machine.md), one table
 * at a time, streamed in row groups. Messages carry no text: the index keeps none, and an episode's
 * `source`, `byte_offset` and `byte_length` locate its record in its trace file.
 */
export function exportParquet(shards: ShardSet, outDir: string, rowGroupSize?: number): ParquetFileWritten[] {
  mkdirSync(outDir, { recursive: true });
  const repository = new ExportRepository(shards);
  const tables = [
    table('episodes.parquet', episodeColumns, () => repository.episodes()),
    table('messages.parquet', messageColumns, () => repository.messages()),
    table('credit.parquet', creditColumns, () => repository.credit()),
    table('flags.parquet', flagColumns, () => repository.flags()),
  ];
  return tables.map((t) => t(shards.paths, outDir, rowGroupSize));
}

/** A table writer: the shard column first, then `columns`, over the rows `read` streams. */
function table<Row extends { shard: number }>(
  name: string,
  columns: readonly ParquetColumn<Row>[],
  read: () => Iterable<Row>,
) {
  return (paths: readonly string[], outDir: string, rowGroupSize?: number): ParquetFileWritten => {
    const file = join(outDir, name);
    const rows = writeParquetTable(file, [shardColumn<Row>(paths), ...columns], read(), rowGroupSize);
    return { file, rows, bytes: statSync(file).size };
  };
}
