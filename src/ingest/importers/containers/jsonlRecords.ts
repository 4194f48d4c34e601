import { closeSync, openSync, readSync } from 'node:fs';
import { err, ok, type Result } from '../../../core/result';
import { excerptOf, messageOf, type ContainerItem, type LocatedRecord } from './containerItem';
import type { RecordLocator } from '../types';

/**
 * Streams the records of a JSONL file: one parsed value per non-blank, newline-terminated line (a
 * last line without `\n` is still being written and is left out, as the line indexer does). A line
 * that is not JSON is an issue at its line. `chunkSize` bounds each read (the sample reads little).
 */
export function* jsonlRecords(path: string, chunkSize = 1 << 20): Generator<ContainerItem> {
  for (const line of jsonlLines(path, chunkSize)) {
    if (line.text.trim() === '') continue;
    const locator: RecordLocator = { line: line.line, offset: line.offset, length: line.length };
    try {
      yield { kind: 'record', record: JSON.parse(line.text), locator, index: line.line - 1, excerpt: excerptOf(line.text) };
    } catch (error) {
      yield { kind: 'issue', locator, reason: `invalid JSON: ${messageOf(error)}`, excerpt: excerptOf(line.text) };
    }
  }
}

interface Line {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

function* jsonlLines(path: string, chunkSize: number): Generator<Line> {
  const fd = openSync(path, 'r');
  try {
    let pending = Buffer.alloc(0);
    let offset = 0;
    let line = 0;
    let position = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkSize);
      const read = readSync(fd, chunk, 0, chunkSize, position);
      if (read === 0) return;
      position += read;
      let data = pending.length > 0 ? Buffer.concat([pending, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let from = 0;
      for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, from)) {
        const end = nl > from && data[nl - 1] === 0x0d ? nl - 1 : nl;
        const text = data.toString('utf8', from, end);
        line++;
        yield { line, offset, length: nl - from, text: offset === 0 ? text.replace(/^\uFEFF/, '') : text };
        offset += nl - from + 1;
        from = nl + 1;
      }
      data = data.subarray(from);
      pending = Buffer.from(data);
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads the record of one JSONL line back by its byte range. */
export function jsonlRecordAt(path: string, at: RecordLocator): Result<LocatedRecord> {
  const text = readRange(path, at.offset, at.length);
  if (!text.ok) return text;
  try {
    const record: unknown = JSON.parse(at.offset === 0 ? text.value.replace(/^\uFEFF/, '') : text.value);
    return ok({ record, index: at.line - 1 });
  } catch {
    return err('the line changed since it was indexed; re-index the run');
  }
}

/** The bytes [offset, offset + length) of a file as UTF-8 text; an error when the file is shorter. */
export function readRange(path: string, offset: number, length: number): Result<string> {
  const buffer = Buffer.allocUnsafe(length);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return err(`cannot read the trace file: ${messageOf(error)}`);
  }
  try {
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, offset + read);
      if (n === 0) return err('the file is shorter than when it was indexed; re-index the run');
      read += n;
    }
    return ok(buffer.toString('utf8'));
  } finally {
    closeSync(fd);
  }
}
