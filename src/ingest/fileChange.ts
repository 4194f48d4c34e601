import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { StoredFileState } from '../core/indexing';

/** What to do with a file on this pass. */
export type FilePlan =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'append'; readonly fromOffset: number; readonly fromLine: number }
  | { readonly kind: 'reindex'; readonly reason: string };

/** Bytes hashed at the start of a file to recognise a rewrite. */
export const headBytes = 4096;

/** SHA-1 of the first `min(headBytes, upTo)` bytes of the file. */
export function headHash(path: string, upTo: number): string {
  const length = Math.min(headBytes, upTo);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, read);
      if (n === 0) break;
      read += n;
    }
    return createHash('sha1').update(buffer.subarray(0, read)).digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** True when the byte just before `offset` is a newline (or `offset` is 0). */
function endsLineAt(path: string, offset: number): boolean {
  if (offset === 0) return true;
  const byte = Buffer.alloc(1);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, byte, 0, 1, offset - 1) === 1 && byte[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/**
 * Decides how to bring the index up to date with a file, from its stored state and its current
 * size and mtime. Unchanged size and mtime cost no read. Growth with an identical head and a line
 * boundary at the stored offset is an append (training still writing); anything else — shrinking,
 * a different head, an in-place edit — re-reads the file from the start.
 */
export function planFile(path: string, stored: StoredFileState | undefined, size: number, mtimeMs: number): FilePlan {
  if (stored === undefined) return { kind: 'reindex', reason: 'new file' };
  if (size === stored.size && mtimeMs === stored.mtimeMs) return { kind: 'unchanged' };
  if (size < stored.indexedOffset) return { kind: 'reindex', reason: `truncated from ${stored.size} to ${size} bytes` };
  if (headHash(path, stored.indexedOffset) !== stored.headHash)
    return { kind: 'reindex', reason: 'rewritten (head changed)' };
  if (size === stored.size) {
    // Same length, new mtime, same head: an in-place edit or a touch; only a full read is safe.
    return size === stored.indexedOffset
      ? { kind: 'reindex', reason: 'modified in place' }
      : { kind: 'append', fromOffset: stored.indexedOffset, fromLine: stored.lines };
  }
  if (!endsLineAt(path, stored.indexedOffset)) return { kind: 'reindex', reason: 'line boundary moved' };
  return { kind: 'append', fromOffset: stored.indexedOffset, fromLine: stored.lines };
}
