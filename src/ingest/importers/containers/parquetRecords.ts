import { statSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  type AsyncBuffer,
  type Compressors,
  type FileMetaData,
} from 'hyparquet';
import { err, ok, type Result } from '../../../core/result';
import type { RecordLocator } from '../types';
import { fileIssue, messageOf, type ContainerItem, type LocatedRecord } from './containerItem';

// Parquet rows through hyparquet (pure JS). Snappy is built in; gzip and brotli come from node:zlib;
// zstd from fzstd (pure JS, what hyparquet-compressors uses too); lz4 files are reported as unreadable.
const compressors: Compressors = {
  GZIP: (input) => gunzipSync(input),
  BROTLI: (input) => brotliDecompressSync(input),
  ZSTD: (input, outputLength) => zstdPage(input, outputLength),
};

/** A zstd page, which must decompress to the length its page header records (else it is damaged). */
function zstdPage(input: Uint8Array, outputLength: number): Uint8Array {
  const out = zstdDecompress(input);
  if (out.length !== outputLength)
    throw new Error(`a zstd page decompressed to ${out.length} bytes, ${outputLength} recorded`);
  return out;
}

interface OpenFile {
  readonly file: AsyncBuffer;
  readonly metadata: FileMetaData;
  /** First row of each row group, and one past the last row. */
  readonly groupStarts: readonly number[];
}

async function openParquet(path: string): Promise<OpenFile> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const groupStarts = [0];
  for (const group of metadata.row_groups)
    groupStarts.push((groupStarts[groupStarts.length - 1] ?? 0) + Number(group.num_rows));
  return { file, metadata, groupStarts };
}

async function readGroup(open: OpenFile, group: number): Promise<Record<string, unknown>[]> {
  const rowStart = open.groupStarts[group] ?? 0;
  const rowEnd = open.groupStarts[group + 1] ?? rowStart;
  const rows = await parquetReadObjects({ file: open.file, metadata: open.metadata, rowStart, rowEnd, compressors });
  return rows.map((row) => plainValue(row) as Record<string, unknown>);
}

/**
 * Streams the rows of a Parquet file as objects (column name → value), one row group in memory at
 * a time. The locator's `offset` is the row index and `line` the row number + 1. INT64 values
 * become numbers (strings when beyond 2^53), so mappers and JSON see plain values.
 */
export async function* parquetRecords(path: string): AsyncGenerator<ContainerItem> {
  let open: OpenFile;
  try {
    open = await openParquet(path);
  } catch (error) {
    yield fileIssue(`cannot read the Parquet file: ${messageOf(error)}`);
    return;
  }
  for (let group = 0; group < open.metadata.row_groups.length; group++) {
    const first = open.groupStarts[group] ?? 0;
    let rows: Record<string, unknown>[];
    try {
      rows = await readGroup(open, group);
    } catch (error) {
      yield {
        kind: 'issue',
        locator: { line: first + 1, offset: first, length: 0 },
        reason: `cannot read Parquet row group ${group + 1}: ${messageOf(error)}`,
      };
      continue;
    }
    for (let i = 0; i < rows.length; i++) {
      const row = first + i;
      yield { kind: 'record', record: rows[i], locator: { line: row + 1, offset: row, length: 0 }, index: row };
    }
  }
}

/** The first `max` rows (for format detection). */
export async function parquetSample(path: string, max: number): Promise<unknown[]> {
  const file = await asyncBufferFromFile(path);
  const rows = await parquetReadObjects({ file, rowStart: 0, rowEnd: max, compressors });
  return rows.map(plainValue);
}

interface CachedGroup {
  readonly key: string;
  readonly open: OpenFile;
  group: number;
  rows: Record<string, unknown>[];
}

/** The row group read last, so that reading a file's rows one by one decodes each group once. */
let lastGroup: CachedGroup | undefined;

/** Reads one row back by its index (locator.offset). */
export async function parquetRecordAt(path: string, at: RecordLocator): Promise<Result<LocatedRecord>> {
  try {
    const stat = statSync(path);
    const key = `${path}\u0000${stat.size}\u0000${stat.mtimeMs}`;
    const open = lastGroup?.key === key ? lastGroup.open : await openParquet(path);
    const group = open.groupStarts.findIndex(
      (start, g) => at.offset >= start && at.offset < (open.groupStarts[g + 1] ?? start),
    );
    if (group < 0) return err('the file has fewer rows than when it was indexed; re-index the run');
    if (lastGroup?.key !== key || lastGroup.group !== group)
      lastGroup = { key, open, group, rows: await readGroup(open, group) };
    const record = lastGroup.rows[at.offset - (open.groupStarts[group] ?? 0)];
    return record === undefined
      ? err('the file changed since it was indexed; re-index the run')
      : ok({ record, index: at.offset });
  } catch (error) {
    return err(`cannot read the Parquet file: ${messageOf(error)}`);
  }
}

/** Parquet values as plain JSON-like values: bigint → number (or string past 2^53), nested values converted. */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (Array.isArray(value)) return value.map(plainValue);
  if (value instanceof BigInt64Array || value instanceof BigUint64Array) return Array.from(value, plainValue);
  // Binary columns stay bytes; other typed arrays (decoded number lists) become arrays.
  if (value instanceof Uint8Array || value instanceof Date || value instanceof DataView) return value;
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainValue(v);
    return out;
  }
  return value;
}
