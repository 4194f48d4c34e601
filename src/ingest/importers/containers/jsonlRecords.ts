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
      yield {
        kind: 'record',
        record: JSON.parse(line.text),
        locator,
        index: line.line - 1,
        excerpt: excerptOf(line.text),
      };
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

/**
 * Work done by {@link jsonlRecords} since the process started, in bytes: read from disk, searched
 * for a newline, and copied to join a line that spans chunks. Each is linear in the bytes read
 * whatever the line lengths (tests assert it; a 50 MB line must not cost 50 MB per chunk).
 */
export const jsonlWork = { bytesRead: 0, bytesSearched: 0, bytesCopied: 0 };

/**
 * The lines of a file, read `chunkSize` bytes at a time. The part of a line that spans chunks is
 * kept as a list of chunk slices and joined once, when its newline arrives, and each chunk is
 * searched for newlines once: the work is linear in the file size even for very long lines.
 */
function* jsonlLines(path: string, chunkSize: number): Generator<Line> {
  const fd = openSync(path, 'r');
  try {
    const state: PendingLine = { parts: [], bytes: 0, offset: 0, line: 0 };
    let position = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkSize);
      const read = readSync(fd, chunk, 0, chunkSize, position);
      if (read === 0) return;
      position += read;
      jsonlWork.bytesRead += read;
      yield* linesOfChunk(chunk.subarray(0, read), state);
    }
  } finally {
    closeSync(fd);
  }
}

/** The start of a line not yet ended by a newline, as slices of the chunks it spans. */
interface PendingLine {
  parts: Buffer[];
  bytes: number;
  /** Byte offset of the pending line in the file. */
  offset: number;
  /** Lines completed so far. */
  line: number;
}

/** The lines a chunk completes; its unterminated tail is added to `state`. */
function* linesOfChunk(data: Buffer, state: PendingLine): Generator<Line> {
  let from = 0;
  for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, from)) {
    jsonlWork.bytesSearched += nl + 1 - from;
    const bytes = joinPending(state, data.subarray(from, nl));
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const text = bytes.toString('utf8', 0, end);
    state.line++;
    yield {
      line: state.line,
      offset: state.offset,
      length: bytes.length,
      text: state.offset === 0 ? text.replace(/^\uFEFF/, '') : text,
    };
    state.offset += bytes.length + 1;
    from = nl + 1;
  }
  jsonlWork.bytesSearched += data.length - from;
  if (from < data.length) {
    // The chunk buffer is not reused, so the slice can be kept without copying.
    state.parts.push(data.subarray(from));
    state.bytes += data.length - from;
  }
}

/** The whole pending line ending with `last`, joined with one copy; `state` is emptied. */
function joinPending(state: PendingLine, last: Buffer): Buffer {
  if (state.parts.length === 0) return last;
  const whole = Buffer.concat([...state.parts, last], state.bytes + last.length);
  jsonlWork.bytesCopied += whole.length;
  state.parts = [];
  state.bytes = 0;
  return whole;
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
