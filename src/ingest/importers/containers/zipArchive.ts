import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';

/** One file of a zip archive, from its central directory. */
export interface ZipEntry {
  readonly name: string;
  /** 0-based position in the central directory. */
  readonly index: number;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** Offset of the entry's local header. */
  readonly localOffset: number;
}

/** A zip archive that cannot be read (not a zip, truncated, zip64, encrypted, unknown compression). */
export class ZipError extends Error {}

/** One entry that cannot be read (the rest of the archive can): its name and what is wrong. */
export class ZipEntryError extends ZipError {
  constructor(
    readonly entry: string,
    readonly detail: string,
  ) {
    super(`${entry}: ${detail}`);
  }
}

/** The compression methods read: stored, deflate and zstd (Inspect ≥ 0.3.206 writes zstd). */
export const zipMethods = { stored: 0, deflate: 8, zstd: 93 } as const;

/** Names of the other methods of the zip specification (APPNOTE 4.4.5), for error messages. */
const otherMethodNames: Readonly<Record<number, string>> = {
  1: 'shrink',
  6: 'implode',
  9: 'deflate64',
  12: 'bzip2',
  14: 'LZMA',
  18: 'IBM TERSE',
  19: 'IBM LZ77',
  20: 'zstd (deprecated id)',
  95: 'xz',
  96: 'JPEG',
  97: 'WavPack',
  98: 'PPMd',
  99: 'AES encryption',
};

/** `method 14 (LZMA)`, or `method 42` for a method with no known name. */
export function methodLabel(method: number): string {
  const name = otherMethodNames[method];
  return name === undefined ? `method ${method}` : `method ${method} (${name})`;
}

/**
 * The uncompressed bytes of one entry's data: stored, deflate (node:zlib) or zstd (fzstd, pure
 * JS, multi-frame). Throws a {@link ZipEntryError} naming the entry and the method when the method
 * is not one of these, and naming the entry when its data does not decompress.
 */
export function decompressEntry(name: string, method: number, raw: Buffer): Buffer {
  if (method === zipMethods.stored) return raw;
  try {
    if (method === zipMethods.deflate) return inflateRawSync(raw);
    if (method === zipMethods.zstd) return zstdBuffer(raw);
  } catch (error) {
    const kind = method === zipMethods.zstd ? 'zstd' : 'deflate';
    throw new ZipEntryError(
      name,
      `the ${kind} data is damaged (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  throw new ZipEntryError(name, `compression ${methodLabel(method)} is not supported (only stored, deflate and zstd)`);
}

function zstdBuffer(raw: Buffer): Buffer {
  const out = zstdDecompress(raw);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

const eocdSignature = 0x06054b50;
const zip64LocatorSignature = 0x07064b50;
const centralSignature = 0x02014b50;
const localSignature = 0x04034b50;
const eocdSize = 22;
const maxComment = 0xffff;

/**
 * A zip archive opened for reading entry by entry: the central directory is read once, and each
 * entry is read and decompressed alone (stored, deflate, zstd: {@link decompressEntry}), so memory
 * is bounded by the largest entry. Zip64 archives are refused with a clear error. Close it when done.
 */
export class ZipArchive {
  readonly entries: readonly ZipEntry[];
  private readonly fd: number;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    try {
      this.entries = readCentralDirectory(this.fd, fstatSync(this.fd).size);
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  /** The uncompressed bytes of an entry of the central directory, checked against its recorded size. */
  read(entry: ZipEntry): Buffer {
    const { data } = this.readAt(entry.localOffset, entry.compressedSize);
    if (data.length !== entry.uncompressedSize) {
      throw new ZipEntryError(
        entry.name,
        `the entry is damaged (${data.length} bytes after decompression, ${entry.uncompressedSize} recorded)`,
      );
    }
    return data;
  }

  /** The entry whose local header is at `localOffset`, with `compressedSize` bytes of data: its name and uncompressed bytes. */
  readAt(localOffset: number, compressedSize: number): { name: string; data: Buffer } {
    const header = readExactly(this.fd, localOffset, 30);
    if (header.readUInt32LE(0) !== localSignature) throw new ZipError(`no zip entry at byte ${localOffset}`);
    const flags = header.readUInt16LE(6);
    if (flags & 1) throw new ZipError('encrypted zip entries are not supported');
    const method = header.readUInt16LE(8);
    const nameLength = header.readUInt16LE(26);
    const extraLength = header.readUInt16LE(28);
    const name = readExactly(this.fd, localOffset + 30, nameLength).toString('utf8');
    const raw = readExactly(this.fd, localOffset + 30 + nameLength + extraLength, compressedSize);
    return { name, data: decompressEntry(name, method, raw) };
  }

  close(): void {
    closeSync(this.fd);
  }
}

function readCentralDirectory(fd: number, size: number): ZipEntry[] {
  if (size < eocdSize) throw new ZipError('not a zip archive (too short)');
  const tailLength = Math.min(size, eocdSize + maxComment);
  const tail = readExactly(fd, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - eocdSize; i >= 0; i--) {
    if (tail.readUInt32LE(i) === eocdSignature) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a zip archive (no end of central directory)');
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  const zip64 = eocd >= 20 && tail.readUInt32LE(eocd - 20) === zip64LocatorSignature;
  if (zip64 || count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) {
    throw new ZipError('zip64 archives are not supported (more than 65,535 entries or 4 GiB); split the log');
  }
  if (cdOffset + cdSize > size)
    throw new ZipError('the zip archive is truncated (its central directory is past the end of the file)');
  const cd = readExactly(fd, cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let index = 0; index < count; index++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== centralSignature)
      throw new ZipError(`the zip central directory is damaged at entry ${index + 1}`);
    const nameLength = cd.readUInt16LE(p + 28);
    const entry: ZipEntry = {
      name: cd.toString('utf8', p + 46, p + 46 + nameLength),
      index,
      method: cd.readUInt16LE(p + 10),
      compressedSize: cd.readUInt32LE(p + 20),
      uncompressedSize: cd.readUInt32LE(p + 24),
      localOffset: cd.readUInt32LE(p + 42),
    };
    if (
      entry.compressedSize === 0xffffffff ||
      entry.uncompressedSize === 0xffffffff ||
      entry.localOffset === 0xffffffff
    ) {
      throw new ZipError(`${entry.name}: zip64 entries are not supported`);
    }
    entries.push(entry);
    p += 46 + nameLength + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
  }
  return entries;
}

function readExactly(fd: number, offset: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, offset + read);
    if (n === 0) throw new ZipError(`the zip archive is truncated (byte ${offset + read} is past its end)`);
    read += n;
  }
  return buffer;
}
