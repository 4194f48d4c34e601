import { closeSync, openSync, readSync } from 'node:fs';

/** One complete line of a JSONL file, without its line terminator. */
export interface JsonlLine {
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset of the first byte of the line. */
  readonly offset: number;
  /** Length in bytes, without the terminating `\n` (a trailing `\r` is stripped from `text` only). */
  readonly length: number;
  readonly text: string;
}

/** Where a read stopped: always just after the last complete line. */
export interface ReadPosition {
  readonly offset: number;
  readonly line: number;
}

const chunkSize = 1 << 20;
/**
 * The read buffer of the last finished read, for the next one in this thread. Why: a buffer per
 * file is garbage outside the JavaScript heap, freed only when the thread next collects; a parse
 * worker that allocates little collects seldom, and the 1 GB benchmark run's 508 files left up
 * to 66 MB of dead buffers behind (heaptrack).
 */
let spareChunk: Buffer | undefined;
const newline = 0x0a;

/**
 * Streams the complete lines of a file from byte `start.offset`, calling `onLine` for each. Reads in
 * 1 MiB chunks, so memory stays bounded by the longest line. A last line without `\n` is a line
 * still being written and is left for the next read: the returned position never passes it.
 * `onLine` may return `false` to stop early (cancellation): that line counts as not consumed, and
 * the returned position points at its start.
 */
export function readJsonlLines(
  path: string,
  start: ReadPosition,
  onLine: (line: JsonlLine) => boolean | void,
): ReadPosition {
  const fd = openSync(path, 'r');
  const buffer = spareChunk ?? Buffer.allocUnsafe(chunkSize);
  spareChunk = undefined; // a read started from `onLine` gets a buffer of its own
  try {
    return readLines(fd, buffer, start, onLine);
  } finally {
    closeSync(fd);
    spareChunk = buffer;
  }
}

function readLines(
  fd: number,
  buffer: Buffer,
  start: ReadPosition,
  onLine: (line: JsonlLine) => boolean | void,
): ReadPosition {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let fileOffset = start.offset;
  let lineStart = start.offset;
  let lineNumber = start.line;
  for (;;) {
    const read = readSync(fd, buffer, 0, chunkSize, fileOffset);
    if (read === 0) break;
    let from = 0;
    let nl = buffer.indexOf(newline, 0);
    while (nl !== -1 && nl < read) {
      const raw = lineText(pending, pendingBytes, buffer, from, nl);
      // A UTF-8 byte-order mark at the start of the file is not part of the first record.
      const text = lineStart === 0 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      const length = pendingBytes + (nl - from);
      pending = [];
      pendingBytes = 0;
      lineNumber++;
      if (onLine({ line: lineNumber, offset: lineStart, length, text }) === false)
        return { offset: lineStart, line: lineNumber - 1 };
      lineStart += length + 1;
      from = nl + 1;
      nl = buffer.indexOf(newline, from);
    }
    if (from < read) {
      pending.push(Buffer.from(buffer.subarray(from, read)));
      pendingBytes += read - from;
    }
    fileOffset += read;
  }
  return { offset: lineStart, line: lineNumber };
}

function lineText(pending: Buffer[], pendingBytes: number, buffer: Buffer, from: number, to: number): string {
  let end = to;
  if (pendingBytes === 0) {
    if (end > from && buffer[end - 1] === 0x0d) end--;
    return buffer.toString('utf8', from, end);
  }
  const whole = Buffer.concat([...pending, buffer.subarray(from, to)], pendingBytes + (to - from));
  const last = whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
  return whole.toString('utf8', 0, last);
}
