import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { err, ok, type Result } from '../../../core/result';
import type { RecordLocator } from '../types';
import {
  excerptOf,
  fileIssue,
  messageOf,
  type ContainerItem,
  type LocatedRecord,
  type RecordSelection,
} from './containerItem';
import { ZipArchive, ZipEntryError, type ZipEntry } from './zipArchive';

export const defaultZipHeader = 'header.json';
/** Header entries larger than this are not parsed (the header is metadata, not data). */
const maxHeaderBytes = 16 << 20;

/**
 * Streams the records of a zip archive (an Inspect `.eval`): the entries matching the selection's
 * `zipRecords` (default: every `.json` entry but the header), in archive order, each inflated and
 * parsed alone. The header entry is parsed once and passed with each record, with the record's
 * entry name as `entry`. A broken entry is an issue at its position; an unreadable archive is one
 * issue for the whole file.
 */
export function* zipRecords(path: string, selection: RecordSelection): Generator<ContainerItem> {
  let archive: ZipArchive;
  try {
    archive = new ZipArchive(path);
  } catch (error) {
    yield fileIssue(`cannot read the zip archive: ${messageOf(error)}`);
    return;
  }
  try {
    const read = readZipHeader(archive, selection, maxHeaderBytes);
    const issue = headerIssue(read, basename(path));
    if (issue) yield issue;
    const header = read.header;
    const isRecord = recordMatcher(selection);
    for (const entry of archive.entries) {
      if (!isRecord(entry.name)) continue;
      const locator: RecordLocator = { line: entry.index + 1, offset: entry.localOffset, length: entry.compressedSize };
      yield entryItem(() => archive.read(entry), { name: entry.name, file: basename(path) }, locator, header ?? {});
    }
  } finally {
    archive.close();
  }
}

/** The record of one entry, or an issue naming the entry and the archive (a bad entry stops nothing else). */
function entryItem(
  read: () => Buffer,
  where: { name: string; file: string },
  locator: RecordLocator,
  header: Readonly<Record<string, unknown>>,
): ContainerItem {
  const { name } = where;
  let text: string;
  try {
    text = read()
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } catch (error) {
    const detail = error instanceof ZipEntryError ? error.detail : messageOf(error);
    return { kind: 'issue', locator, reason: `${name}: cannot read this entry of ${where.file}: ${detail}` };
  }
  try {
    return {
      kind: 'record',
      record: JSON.parse(text),
      locator,
      index: locator.line - 1,
      header: { ...header, entry: name },
      excerpt: excerptOf(text),
    };
  } catch (error) {
    return { kind: 'issue', locator, reason: `${name}: invalid JSON: ${messageOf(error)}`, excerpt: excerptOf(text) };
  }
}

/** Which entries are records: `zipRecords`, else every `.json` file but the header. */
function recordMatcher(selection: RecordSelection): (name: string) => boolean {
  const headerName = selection.zipHeader ?? defaultZipHeader;
  const pattern = selection.zipRecords;
  return (name) => (pattern ? pattern.test(name) : name.endsWith('.json') && name !== headerName);
}

/** The header entry read: its object, or why it could not be used (absent and too large are neither). */
interface HeaderRead {
  readonly entry?: ZipEntry;
  readonly header?: Readonly<Record<string, unknown>>;
  readonly problem?: string;
}

function readZipHeader(archive: ZipArchive, selection: RecordSelection, limit: number): HeaderRead {
  const name = selection.zipHeader ?? defaultZipHeader;
  const entry = archive.entries.find((e: ZipEntry) => e.name === name);
  if (!entry || entry.uncompressedSize > limit) return {};
  let text: string;
  try {
    text = archive
      .read(entry)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } catch (error) {
    return {
      entry,
      problem: `cannot read this entry: ${error instanceof ZipEntryError ? error.detail : messageOf(error)}`,
    };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { entry, header: value as Record<string, unknown> };
    return { entry, problem: 'the header is not a JSON object' };
  } catch (error) {
    return { entry, problem: `invalid JSON: ${messageOf(error)}` };
  }
}

/** The parsed header entry as an object; undefined when absent, too large, unreadable or not a JSON object. */
export function zipHeader(
  archive: ZipArchive,
  selection: RecordSelection,
  limit = maxHeaderBytes,
): Readonly<Record<string, unknown>> | undefined {
  return readZipHeader(archive, selection, limit).header;
}

/** An issue at the header entry when it is there but cannot be used (its records are still read, without it). */
function headerIssue(read: HeaderRead, file: string): ContainerItem | undefined {
  if (!read.entry || read.problem === undefined) return undefined;
  const locator: RecordLocator = {
    line: read.entry.index + 1,
    offset: read.entry.localOffset,
    length: read.entry.compressedSize,
  };
  return {
    kind: 'issue',
    locator,
    reason: `${read.entry.name} (the header of ${file}): ${read.problem}; its records are read without it`,
  };
}

/** The header parsed last, so that reading an archive's records one by one parses it once. */
let lastHeader: { key: string; header: Readonly<Record<string, unknown>> } | undefined;

/** Reads one record back by its locator (local-header offset and compressed length). */
export function zipRecordAt(path: string, selection: RecordSelection, at: RecordLocator): Result<LocatedRecord> {
  let archive: ZipArchive;
  let key: string;
  try {
    const stat = statSync(path);
    key = `${path}\u0000${stat.size}\u0000${stat.mtimeMs}\u0000${selection.zipHeader ?? defaultZipHeader}`;
    archive = new ZipArchive(path);
  } catch (error) {
    return err(`cannot read the zip archive: ${messageOf(error)}`);
  }
  try {
    const { name, data } = archive.readAt(at.offset, at.length);
    const record: unknown = JSON.parse(data.toString('utf8').replace(/^\uFEFF/, ''));
    if (lastHeader?.key !== key) lastHeader = { key, header: zipHeader(archive, selection) ?? {} };
    return ok({ record, index: at.line - 1, header: { ...lastHeader.header, entry: name } });
  } catch {
    return err('the archive changed since it was indexed; re-index the run');
  } finally {
    archive.close();
  }
}
