import { statSync } from 'node:fs';
import type { Result } from '../../../core/result';
import type { ContainerKind, FormatMapper, RecordLocator } from '../types';
import { messageOf, type ContainerItem, type LocatedRecord, type RecordSelection } from './containerItem';
import { jsonRecordAt, jsonRecords, smallJsonRoot, type JsonSelection } from './jsonRecords';
import { jsonlRecordAt, jsonlRecords } from './jsonlRecords';
import { parquetRecordAt, parquetRecords, parquetSample } from './parquetRecords';
import { ZipArchive } from './zipArchive';
import { zipHeader, zipRecordAt, zipRecords } from './zipRecords';

/** Trace-file extensions (lower case) and the container each is read with. */
export const containerExtensions: Readonly<Record<string, ContainerKind>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.json': 'json',
  '.eval': 'zip',
  '.parquet': 'parquet',
};

/** The container of a trace file, from its name; undefined for other files. */
export function containerOf(fileName: string): ContainerKind | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? undefined : containerExtensions[fileName.slice(dot)];
}

/** Which records of a file a mapper reads. */
export function selectionOf(mapper: FormatMapper): RecordSelection {
  return {
    json: mapper.jsonRecords ?? 'array',
    ...(mapper.zipRecords ? { zipRecords: mapper.zipRecords } : {}),
    ...(mapper.zipHeader ? { zipHeader: mapper.zipHeader } : {}),
  };
}

function jsonSelection(selection: RecordSelection): JsonSelection {
  return selection.json ?? 'array';
}

/** Streams a file's records through its container (see each container for memory bounds and issues). */
export function streamRecords(
  kind: ContainerKind,
  path: string,
  selection: RecordSelection,
): Iterable<ContainerItem> | AsyncIterable<ContainerItem> {
  switch (kind) {
    case 'jsonl':
      return jsonlRecords(path);
    case 'json':
      return jsonRecords(path, jsonSelection(selection));
    case 'zip':
      return zipRecords(path, selection);
    case 'parquet':
      return parquetRecords(path);
  }
}

/** Reads one record back through its container by the locator stored when it was indexed. */
export async function recordAt(
  kind: ContainerKind,
  path: string,
  selection: RecordSelection,
  at: RecordLocator,
): Promise<Result<LocatedRecord>> {
  switch (kind) {
    case 'jsonl':
      return jsonlRecordAt(path, at);
    case 'json':
      return jsonRecordAt(path, jsonSelection(selection), at);
    case 'zip':
      return zipRecordAt(path, selection, at);
    case 'parquet':
      return parquetRecordAt(path, at);
  }
}

/** The first records of a file and, when small, its root (for detection). */
export interface Sample {
  readonly records: readonly unknown[];
  readonly root?: unknown;
}

/** Records taken for detection. */
export const sampleSize = 5;
/** Records taken when the first {@link sampleSize} do not identify the format (scored one by one). */
export const wideSampleSize = 25;
/** Once this many bytes of records are sampled, sampling stops (after at least one record). */
export const maxSampleBytes = 8 << 20;
const maxSampleRoot = 1 << 20;
const maxRootRecord = 64 << 20;

/**
 * Reads the detection sample of a file for one selection: up to `size` records, fewer when they
 * pass {@link maxSampleBytes}; throws when the file cannot be read at all.
 */
export async function sampleRecords(
  kind: ContainerKind,
  path: string,
  selection: RecordSelection,
  size = sampleSize,
): Promise<Sample> {
  if (kind === 'parquet') return { records: await parquetSample(path, size) };
  if (kind === 'json' && selection.json === 'root') return rootSample(path);
  const records: unknown[] = [];
  let firstEntryIssue: string | undefined;
  const source =
    kind === 'jsonl'
      ? jsonlRecords(path, 64 << 10)
      : kind === 'json'
        ? jsonRecords(path, jsonSelection(selection))
        : zipRecords(path, selection);
  for (const item of source) {
    if (item.kind === 'record') records.push(item.record);
    else if (item.locator.line === 0) throw new Error(item.reason);
    else if (/: cannot read this entry of /.test(item.reason)) firstEntryIssue ??= item.reason;
    if (records.length >= size) break;
    if (kind !== 'zip' && records.length > 0 && item.locator.offset + item.locator.length >= maxSampleBytes) break;
  }
  // An archive none of whose record entries can be read says why, not "no importer recognises it".
  if (kind === 'zip' && records.length === 0 && firstEntryIssue !== undefined) {
    throw new Error(`cannot read the zip archive's records: ${firstEntryIssue}`);
  }
  if (kind === 'json') return { records, root: smallJsonRoot(path, maxSampleRoot) };
  if (kind === 'zip') return { records, root: zipRoot(path, selection) };
  return { records };
}

/** A root-record file is one record: parsed for detection up to {@link maxRootRecord} bytes. */
function rootSample(path: string): Sample {
  const size = statSync(path).size;
  if (size > maxRootRecord) return { records: [] };
  const root = smallJsonRoot(path, maxRootRecord);
  return {
    records: root === undefined ? [] : [root],
    ...(size <= maxSampleRoot && root !== undefined ? { root } : {}),
  };
}

function zipRoot(path: string, selection: RecordSelection): unknown {
  let archive: ZipArchive | undefined;
  try {
    archive = new ZipArchive(path);
    return zipHeader(archive, selection, maxSampleRoot);
  } catch (error) {
    throw new Error(messageOf(error));
  } finally {
    archive?.close();
  }
}
