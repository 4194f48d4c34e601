import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { err, ok, type Result } from '../../../core/result';
import { jsonErrorLine } from '../../jsonErrorLine';
import type { RecordLocator } from '../types';
import { excerptOf, messageOf, type ContainerItem, type LocatedRecord } from './containerItem';
import { readRange } from './jsonlRecords';
import { JsonSplitError, JsonSplitter, type SplitValue } from './jsonSplitter';

export type JsonSelection = 'root' | 'array' | { readonly property: string };

const chunkSize = 1 << 20;

/**
 * Streams the records of a JSON file: the root document itself, the elements of a top-level array,
 * or the elements of one root property's array. Arrays are split by {@link JsonSplitter} in 1 MiB
 * chunks, so memory is bounded by the largest record; each element is parsed alone and a broken
 * one is an issue at its line. A structural error (an unclosed document) ends the stream with an
 * issue at its line, after every record before it.
 */
export function* jsonRecords(path: string, selection: JsonSelection): Generator<ContainerItem> {
  if (selection === 'root') {
    yield rootRecord(path);
    return;
  }
  const splitter = new JsonSplitter({ records: selection });
  const header: Record<string, unknown> = {};
  let frozen: Readonly<Record<string, unknown>> | undefined;
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(chunkSize);
    let position = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunkSize, position);
      if (read === 0) break;
      for (const value of splitter.feed(chunk.subarray(0, read), position)) {
        if (value.role === 'header') addHeader(header, value);
        else yield recordItem(value, selection === 'array' ? undefined : (frozen ??= Object.freeze({ ...header })));
      }
      position += read;
    }
    splitter.finish(position);
  } catch (error) {
    if (!(error instanceof JsonSplitError)) throw error;
    yield {
      kind: 'issue',
      locator: { line: error.line, offset: error.offset, length: 0 },
      reason: `invalid JSON: ${error.message}`,
    };
  } finally {
    closeSync(fd);
  }
}

function addHeader(header: Record<string, unknown>, value: SplitValue): void {
  if (value.key === undefined) return;
  try {
    header[value.key] = JSON.parse(value.bytes.toString('utf8'));
  } catch {
    // A broken header value is left out; the structure around it was sound.
  }
}

function recordItem(value: SplitValue, header: Readonly<Record<string, unknown>> | undefined): ContainerItem {
  const locator: RecordLocator = { line: value.line, offset: value.offset, length: value.length };
  const text = value.bytes.toString('utf8');
  try {
    return {
      kind: 'record',
      record: JSON.parse(text),
      locator,
      index: value.index,
      excerpt: excerptOf(text),
      ...(header ? { header } : {}),
    };
  } catch (error) {
    return { kind: 'issue', locator, reason: `invalid JSON: ${messageOf(error)}`, excerpt: excerptOf(text) };
  }
}

/** The whole document as one record (a Who&When file); it is the file, so it is read whole. */
function rootRecord(path: string): ContainerItem {
  const raw = readFileSync(path, 'utf8');
  const text = raw.replace(/^\uFEFF/, '');
  const start = text.search(/\S/);
  const before = start < 0 ? text : text.slice(0, start);
  const line = 1 + (before.match(/\n/g)?.length ?? 0);
  const offset = Buffer.byteLength(raw.slice(0, raw.length - text.length + Math.max(start, 0)));
  const locator: RecordLocator = { line, offset, length: Buffer.byteLength(text.trim()) };
  if (start < 0) return { kind: 'issue', locator, reason: 'the file holds no JSON value' };
  try {
    return { kind: 'record', record: JSON.parse(text), locator, index: 0, excerpt: excerptOf(text.slice(start)) };
  } catch (error) {
    return {
      kind: 'issue',
      locator: { ...locator, line: jsonErrorLine(error, text) },
      reason: `invalid JSON: ${messageOf(error)}`,
      excerpt: excerptOf(text.slice(start)),
    };
  }
}

/** The parsed document when the file is at most `limit` bytes, else undefined (also when it is not JSON). */
export function smallJsonRoot(path: string, limit = 1 << 20): unknown {
  try {
    if (statSync(path).size > limit) return undefined;
    return JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

/** Reads one record of a JSON file back by its byte range, with its index and header as when it was streamed. */
export function jsonRecordAt(path: string, selection: JsonSelection, at: RecordLocator): Result<LocatedRecord> {
  const text = readRange(path, at.offset, at.length);
  if (!text.ok) return text;
  let record: unknown;
  try {
    record = JSON.parse(at.offset === 0 ? text.value.replace(/^\uFEFF/, '') : text.value);
  } catch {
    return err('the record changed since it was indexed; re-index the run');
  }
  if (selection === 'root') return ok({ record, index: 0 });
  const layout = recordLayout(path, selection);
  const index = layout.indexByOffset.get(at.offset);
  if (index === undefined) return err('the record changed since it was indexed; re-index the run');
  return ok({ record, index, ...(layout.header ? { header: layout.header } : {}) });
}

interface RecordLayout {
  readonly key: string;
  readonly indexByOffset: ReadonlyMap<number, number>;
  readonly header?: Readonly<Record<string, unknown>>;
}

/** The last layouts scanned (record offsets and header), for reading records back one by one. */
const layouts: RecordLayout[] = [];

function recordLayout(path: string, selection: Exclude<JsonSelection, 'root'>): RecordLayout {
  const stat = statSync(path);
  const key = `${path}\u0000${stat.size}\u0000${stat.mtimeMs}\u0000${selection === 'array' ? '[]' : selection.property}`;
  const cached = layouts.find((l) => l.key === key);
  if (cached) return cached;
  const indexByOffset = new Map<number, number>();
  const header: Record<string, unknown> = {};
  let sawRecord = false;
  const splitter = new JsonSplitter({ records: selection, keepRecords: false });
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(chunkSize);
    for (let position = 0; ;) {
      const read = readSync(fd, chunk, 0, chunkSize, position);
      if (read === 0) break;
      for (const value of splitter.feed(chunk.subarray(0, read), position)) {
        if (value.role === 'record') {
          indexByOffset.set(value.offset, value.index);
          sawRecord = true;
        } else if (!sawRecord) addHeader(header, value);
      }
      position += read;
    }
  } catch (error) {
    if (!(error instanceof JsonSplitError)) throw error;
  } finally {
    closeSync(fd);
  }
  const layout: RecordLayout = {
    key,
    indexByOffset,
    ...(selection === 'array' ? {} : { header: Object.freeze(header) }),
  };
  layouts.unshift(layout);
  layouts.length = Math.min(layouts.length, 4);
  return layout;
}
