import { searchDocumentSeparator } from './indexing';

/**
 * A batch's documents encoded as UTF-8 one after another: its episodes' search documents
 * (`searchDocument`, core/indexing.ts), or its episodes' JSON (ingest/parseLines.ts). Document `i`
 * is `bytes[ends[i - 1] .. ends[i])` (from 0 for the first). Why bytes: a batch's documents are
 * megabytes that live until the batch is written; as JavaScript strings every young-generation
 * collection of the threads that hold them copies them again (most of the side full-text thread's
 * garbage collection time), where two typed arrays cross threads by transfer and are never copied
 * by the collector. The store binds a search document as a blob: FTS5 reads a blob's bytes as its text.
 */
export interface PackedTexts {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly ends: Uint32Array<ArrayBuffer>;
}

const encoder = new TextEncoder();
/** UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units). */
const maxBytesPerUnit = 3;
/** The first buffer a packer allocates. */
const minimumBytes = 1 << 20;

/**
 * Builds {@link PackedTexts} one document at a time. By default each {@link take} copies the
 * documents out and the packer keeps its buffer. With `spare`, a take hands out the packer's own
 * buffer (for a transfer) and writes on in a buffer `spare` returns (one the receiver sent back
 * after use), or a new one as large as the last: the same few buffers then circulate between the
 * threads, and none waits for a collection in a thread that allocates too little to run one.
 */
export class TextPacker {
  private buffer: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private used = 0;
  private ends: number[] = [];
  /** With `spare`: the size of the buffer last handed out. */
  private lastCapacity = 0;

  constructor(private readonly spare?: () => ArrayBuffer | undefined) {}

  /** Documents pushed since the last {@link take}. */
  get count(): number {
    return this.ends.length;
  }

  /** Appends one document. */
  push(text: string): void {
    this.write(text);
    this.ends.push(this.used);
  }

  /**
   * Appends the search document of an episode whose messages have these contents: searchDocument(contents)
   * (core/indexing.ts) encoded, without building the joined string.
   */
  pushDocument(contents: readonly string[]): void {
    for (let i = 0; i < contents.length; i++) {
      if (i > 0) this.write(searchDocumentSeparator);
      this.write(contents[i] ?? '');
    }
    this.ends.push(this.used);
  }

  /** The documents pushed so far, in buffers of their own (safe to transfer), and an empty packer. */
  take(): PackedTexts {
    const ends = Uint32Array.from(this.ends);
    let bytes: Uint8Array<ArrayBuffer>;
    if (this.spare) {
      bytes = this.buffer.subarray(0, this.used);
      this.lastCapacity = this.buffer.length;
      this.buffer = new Uint8Array(0); // the next write takes a spare
    } else bytes = this.buffer.slice(0, this.used);
    this.used = 0;
    this.ends = [];
    return { bytes, ends };
  }

  private write(text: string): void {
    const needed = this.used + text.length * maxBytesPerUnit;
    if (this.used === 0 && needed > this.buffer.length && this.spare) {
      // A returned buffer, or one as large as the last batch needed: batches are alike in size.
      this.buffer = new Uint8Array(this.spare() ?? new ArrayBuffer(Math.max(needed, this.lastCapacity)));
    }
    if (needed > this.buffer.length) {
      const grown = new Uint8Array(Math.max(needed, this.buffer.length * 2, minimumBytes));
      grown.set(this.buffer.subarray(0, this.used));
      this.buffer = grown;
    }
    this.used += encoder.encodeInto(text, this.buffer.subarray(this.used)).written;
  }
}

/** Document `i` of `texts` as UTF-8 bytes (a view, not a copy); empty when the episode has no text. */
export function packedText(texts: PackedTexts, i: number): Uint8Array {
  const start = i === 0 ? 0 : (texts.ends[i - 1] ?? 0);
  return texts.bytes.subarray(start, texts.ends[i] ?? start);
}

/** The buffers of `texts`, for a postMessage transfer list. */
export function packedTransfer(texts: PackedTexts): ArrayBuffer[] {
  return [texts.bytes.buffer, texts.ends.buffer];
}
