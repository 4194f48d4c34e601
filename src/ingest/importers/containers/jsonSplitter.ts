/** A value the splitter cut out of the document: a record, or a header property (see JsonSplitter). */
export interface SplitValue {
  readonly role: 'record' | 'header';
  /** The value's bytes, trailing whitespace trimmed; empty when record bytes are not kept. */
  readonly bytes: Buffer;
  /** Byte offset of the value's first byte in the file. */
  readonly offset: number;
  /** Byte length of the value. */
  readonly length: number;
  /** 1-based line of the value's first byte. */
  readonly line: number;
  /** 0-based position of a record in its array. */
  readonly index: number;
  /** For a header value: its property name. */
  readonly key?: string;
}

/** A problem in the document's structure, at a 1-based line. */
export class JsonSplitError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly offset: number,
  ) {
    super(message);
  }
}

export interface SplitterOptions {
  /** `array`: the elements of a top-level array; `{property}`: the elements of that root property's array. */
  readonly records: 'array' | { readonly property: string };
  /** Keep record bytes (false: only offsets, lengths and lines, to locate records cheaply). */
  readonly keepRecords?: boolean;
  /** With a property: keep the root's other properties up to this many bytes in all (default 1 MiB). */
  readonly headerBudget?: number;
}

interface Capture {
  readonly role: 'record' | 'header' | 'key';
  readonly offset: number;
  readonly line: number;
  keep: boolean;
  pieces: Buffer[];
  size: number;
  from: number;
}

const quote = 0x22;
const backslash = 0x5c;
const newline = 0x0a;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/**
 * Cuts a JSON document into records without parsing it, so a file of any size is read in bounded
 * memory: bytes are fed chunk by chunk, strings and escapes are tracked (JSON's structural
 * characters are ASCII, so scanning UTF-8 bytes is exact), and each record's bytes are returned as
 * soon as its closing `,` or `]` is seen. Each record is parsed by the caller with JSON.parse.
 */
export class JsonSplitter {
  private readonly property: string | undefined;
  private readonly keepRecords: boolean;
  private headerBudget: number;
  private depth = 0;
  private inString = false;
  private escape = false;
  private line = 1;
  private rootStarted = false;
  private rootClosed = false;
  /** Depth of the container whose elements are records; -1 until found (property) or after it closed. */
  private recordsDepth: number;
  private recordIndex = 0;
  /** True from a record's first byte to its closing separator. */
  private recordOpen = false;
  /** At depth 1 of a root object: what comes next. */
  private rootExpect: 'key' | 'colon' | 'value' | 'comma' = 'key';
  private key: string | undefined;
  private headerOpen = false;
  private capture: Capture | undefined;
  private out: SplitValue[] = [];

  constructor(options: SplitterOptions) {
    this.property = options.records === 'array' ? undefined : options.records.property;
    this.recordsDepth = this.property === undefined ? 1 : -1;
    this.keepRecords = options.keepRecords ?? true;
    this.headerBudget = this.property === undefined ? 0 : (options.headerBudget ?? 1 << 20);
  }

  /** Scans `chunk` (which starts at byte `chunkOffset` of the file); returns the values it completed. Throws JsonSplitError. */
  feed(chunk: Buffer, chunkOffset: number): SplitValue[] {
    this.out = [];
    let i = chunkOffset === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
    const n = chunk.length;
    for (; i < n; i++) {
      const b = chunk[i] as number;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (b === backslash) this.escape = true;
        else if (b === quote) {
          this.inString = false;
          if (this.capture?.role === 'key') this.endKey(chunk, i + 1);
        } else if (b === newline) this.line++;
        continue;
      }
      if (isSpace(b)) {
        if (b === newline) this.line++;
        continue;
      }
      this.structural(b, chunk, i, chunkOffset + i);
    }
    const c = this.capture;
    if (c) {
      // Copied: the caller may reuse `chunk` for the next read.
      this.keepPiece(c, c.keep ? Buffer.from(chunk.subarray(c.from, n)) : chunk.subarray(c.from, n));
      c.from = 0;
    }
    return this.out;
  }

  /** Checks that the document ended; throws JsonSplitError when it is incomplete. */
  finish(endOffset: number): void {
    if (!this.rootStarted) throw new JsonSplitError('the file holds no JSON value', this.line, endOffset);
    if (this.inString || this.depth > 0) {
      const open =
        this.capture?.role === 'record' ? ` (the record starting at line ${this.capture.line} is not closed)` : '';
      throw new JsonSplitError(`unexpected end of file: the JSON document is incomplete${open}`, this.line, endOffset);
    }
  }

  private structural(b: number, chunk: Buffer, i: number, pos: number): void {
    if (this.rootClosed) throw new JsonSplitError('unexpected content after the JSON document', this.line, pos);
    switch (b) {
      case 0x7b: // {
      case 0x5b: // [
        this.valueStart(b, i, pos);
        this.depth++;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.separator(chunk, i, pos, true);
        this.depth--;
        if (this.depth === 0) this.rootClosed = true;
        else if (this.depth === 1 && this.property !== undefined) this.rootExpect = 'comma';
        return;
      case 0x2c: // ,
        this.separator(chunk, i, pos, false);
        return;
      case 0x3a: // :
        if (this.depth === 1 && this.property !== undefined) {
          if (this.rootExpect !== 'colon')
            throw new JsonSplitError('unexpected ":" in the root object', this.line, pos);
          this.rootExpect = 'value';
        }
        return;
      default:
        this.valueStart(b, i, pos);
        if (b === quote) this.inString = true;
    }
  }

  /** A byte that may begin a value (or, in the root object, a key). */
  private valueStart(b: number, i: number, pos: number): void {
    if (this.depth === 0) return this.rootStart(b, pos);
    if (this.depth === this.recordsDepth) {
      if (this.recordOpen) return;
      this.recordOpen = true;
      this.capture = this.newCapture('record', i, pos, this.keepRecords);
      return;
    }
    if (this.depth !== 1 || this.property === undefined) return;
    if (this.rootExpect === 'key') {
      if (b !== quote) throw new JsonSplitError('expected a property name in the root object', this.line, pos);
      this.capture = this.newCapture('key', i, pos, true);
      this.rootExpect = 'colon';
    } else if (this.rootExpect === 'value') {
      this.rootExpect = 'comma';
      if (this.key === this.property && this.recordsDepth === -1 && this.recordIndex === 0) {
        if (b !== 0x5b) throw new JsonSplitError(`"${this.property}" is not an array`, this.line, pos);
        this.recordsDepth = 2;
      } else if (this.headerBudget > 0) {
        this.headerOpen = true;
        this.capture = this.newCapture('header', i, pos, true);
      }
    }
  }

  private rootStart(b: number, pos: number): void {
    if (this.rootStarted) throw new JsonSplitError('unexpected content after the JSON document', this.line, pos);
    this.rootStarted = true;
    if (this.property === undefined && b !== 0x5b)
      throw new JsonSplitError(`expected a JSON array at the top level, found ${kindOf(b)}`, this.line, pos);
    if (this.property !== undefined && b !== 0x7b)
      throw new JsonSplitError(`expected a JSON object at the top level, found ${kindOf(b)}`, this.line, pos);
    if (b !== 0x5b && b !== 0x7b) this.rootClosed = true;
  }

  /** A `,` or a closing bracket: ends the record or header value open at this depth. */
  private separator(chunk: Buffer, i: number, pos: number, closing: boolean): void {
    if (this.depth === this.recordsDepth) {
      if (this.recordOpen) this.endValue(chunk, i);
      else if (!closing || this.recordIndex > 0)
        throw new JsonSplitError('expected a value before this separator', this.line, pos);
      this.recordOpen = false;
      if (closing && this.property !== undefined) this.recordsDepth = -1;
      return;
    }
    if (this.depth === 1 && this.property !== undefined) {
      if (this.headerOpen) this.endValue(chunk, i);
      this.headerOpen = false;
      if (!closing) this.rootExpect = 'key';
    }
  }

  private newCapture(role: Capture['role'], i: number, pos: number, keep: boolean): Capture {
    return { role, offset: pos, line: this.line, keep, pieces: [], size: 0, from: i };
  }

  private keepPiece(c: Capture, piece: Buffer): void {
    c.size += piece.length;
    if (!c.keep) return;
    if (c.role === 'header' && c.size > this.headerBudget) {
      c.keep = false;
      c.pieces = [];
      return;
    }
    c.pieces.push(piece);
  }

  private endKey(chunk: Buffer, end: number): void {
    const c = this.capture as Capture;
    this.keepPiece(c, chunk.subarray(c.from, end));
    this.capture = undefined;
    try {
      this.key = JSON.parse(Buffer.concat(c.pieces).toString('utf8')) as string;
    } catch {
      throw new JsonSplitError('invalid property name in the root object', c.line, c.offset);
    }
  }

  private endValue(chunk: Buffer, end: number): void {
    const c = this.capture;
    if (!c) return;
    this.capture = undefined;
    this.keepPiece(c, chunk.subarray(c.from, end));
    const length = c.size - trailingSpace(c.pieces, c.keep);
    if (c.role === 'record') {
      const bytes = c.keep ? Buffer.concat(c.pieces).subarray(0, length) : Buffer.alloc(0);
      this.out.push({
        role: 'record',
        bytes,
        offset: c.offset,
        length: c.keep ? length : c.size,
        line: c.line,
        index: this.recordIndex++,
      });
    } else if (c.role === 'header' && c.keep) {
      this.headerBudget -= c.size;
      const bytes = Buffer.concat(c.pieces).subarray(0, length);
      this.out.push({
        role: 'header',
        bytes,
        offset: c.offset,
        length,
        line: c.line,
        index: 0,
        ...(this.key !== undefined ? { key: this.key } : {}),
      });
    }
  }
}

/** Whitespace bytes at the end of the captured pieces (0 when the bytes are not kept). */
function trailingSpace(pieces: readonly Buffer[], kept: boolean): number {
  if (!kept) return 0;
  let count = 0;
  for (let p = pieces.length - 1; p >= 0; p--) {
    const piece = pieces[p] as Buffer;
    for (let i = piece.length - 1; i >= 0; i--) {
      if (!isSpace(piece[i] as number)) return count;
      count++;
    }
  }
  return count;
}

function kindOf(b: number): string {
  if (b === 0x7b) return 'an object';
  if (b === 0x5b) return 'an array';
  if (b === quote) return 'a string';
  return 'a number or literal';
}
