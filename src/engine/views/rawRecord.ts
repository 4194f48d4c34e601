import { join } from 'node:path';
import type { RawRecordView } from '../../protocol/episodePanel';
import { err, ok, type Result } from '../../core/result';
import { canonicalFormat } from '../../ingest/importers/canonicalMapper';
import { containerOf, recordAt, selectionOf } from '../../ingest/importers/containers/container';
import { readRange } from '../../ingest/importers/containers/jsonlRecords';
import { formatMappers } from '../../ingest/importers/mappers';
import { findImporter, importerList } from '../../ingest/importers/registry';
import { megabytes } from '../report/format';
import { maxRawRecordBytes } from './episodeTextLimits';
import { parsedJson } from './parsedJson';

/** Where an episode's record is, as the index stores it. */
export interface RawRecordLocation {
  readonly uri: string;
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly format: string;
}

/**
 * The episode's own record in its trace file: for a line-delimited or JSON file the bytes the
 * index points at (pretty-printed when the whole record is within `cap` bytes and parses), for an
 * archive or table the record read back through its container, as JSON. Fails with `file:line:
 * reason` when the file is gone or shorter than when it was indexed.
 */
export async function readRawRecord(
  root: string,
  at: RawRecordLocation,
  cap = maxRawRecordBytes,
): Promise<Result<RawRecordView>> {
  const where = `${at.uri}:${String(at.line)}`;
  const kind = at.format === canonicalFormat ? 'jsonl' : containerOf(at.uri);
  const read =
    kind === 'jsonl' || kind === 'json'
      ? byteRange(join(root, at.uri), at, cap)
      : kind
        ? await throughContainer(root, at, kind, cap)
        : err('not a trace file');
  return read.ok ? read : err(`${where}: ${read.error}`);
}

function byteRange(path: string, at: RawRecordLocation, cap: number): Result<RawRecordView> {
  const shown = Math.min(at.length, cap);
  const text = readRange(path, at.offset, shown);
  if (!text.ok) return text;
  if (shown < at.length) return ok(cut(text.value, at.length, shown));
  const value = parsedJson(text.value.replace(/^\uFEFF/, ''));
  if (value === undefined) return ok({ text: text.value, bytes: at.length, pretty: false, note: notJson });
  return ok(whole(prettyJson(value), at.length, cap));
}

async function throughContainer(
  root: string,
  at: RawRecordLocation,
  kind: 'zip' | 'parquet',
  cap: number,
): Promise<Result<RawRecordView>> {
  const mapper = findImporter(at.format, importerList(formatMappers));
  if (!mapper) return err(`no importer named "${at.format}" in this build reads the record`);
  const read = await recordAt(kind, join(root, at.uri), selectionOf(mapper), at);
  if (!read.ok) return read;
  const text = prettyJson(read.value.record);
  return ok(whole(text, Buffer.byteLength(text), cap));
}

/** Pretty-printed text of a whole record, cut to `cap` bytes when it is longer. */
function whole(text: string, bytes: number, cap: number): RawRecordView {
  const textBytes = Buffer.byteLength(text);
  if (textBytes <= cap) return { text, bytes, pretty: true, note: null };
  return { ...cut(Buffer.from(text).subarray(0, cap).toString('utf8'), bytes, cap), pretty: true };
}

function cut(text: string, bytes: number, shown: number): RawRecordView {
  return {
    text,
    bytes,
    pretty: false,
    note: `Showing the first ${megabytes(shown)} of ${megabytes(bytes)}; Reveal in trace opens the whole record.`,
  };
}

const notJson = 'The record is not JSON as it stands in the file; shown as it is.';

/** JSON with two-space indents; a table's 64-bit integers (BigInt) as their digits. */
function prettyJson(value: unknown): string {
  // A record is never undefined here (containers return parsed values), so the result is text.
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
}
