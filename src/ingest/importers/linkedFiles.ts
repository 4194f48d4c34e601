import { readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { messageOf } from './containers/containerItem';
import type { FormatMapper, LinkedFile, RecordContext } from './types';

/** At most this many linked files per record, each at most this large. */
const maxFiles = 64;
const maxBytes = 64 * 1024 * 1024;

/** `ref` (relative to the file `fromUri`) as a path relative to the indexed folder, or undefined when it leaves the folder. */
export function resolveLink(fromUri: string, ref: string): string | undefined {
  if (ref === '' || ref.startsWith('/') || /^[A-Za-z]:[\\/]/.test(ref) || ref.includes('\0')) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(fromUri), ref.replace(/\\/g, '/')));
  return joined.startsWith('../') || joined === '..' ? undefined : joined;
}

function readLinked(root: string, uri: string): LinkedFile {
  try {
    const path = join(root, uri);
    const size = statSync(path).size;
    if (size > maxBytes) return { ok: false, error: `larger than ${maxBytes / 1024 / 1024} MiB` };
    return { ok: true, value: JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')) as unknown };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

/**
 * The context of a record with the files its mapper links to ({@link FormatMapper.linkedFiles}),
 * followed breadth-first through the files read, each once; `context` as it is when the mapper
 * links none. `root` is the indexed folder. Never throws: a file that cannot be read is kept as
 * its reason, and a mapper whose `linkedFiles` throws links nothing.
 */
export function withLinkedFiles(
  mapper: FormatMapper,
  record: unknown,
  context: RecordContext,
  root: string,
): RecordContext {
  const links = mapper.linkedFiles;
  if (!links) return context;
  const linked: Record<string, LinkedFile> = {};
  const queue: { uri: string; record: unknown }[] = [{ uri: context.uri, record }];
  const seen = new Set([context.uri]);
  while (queue.length > 0 && seen.size <= maxFiles) {
    const next = queue.shift();
    if (!next) break;
    let refs: readonly string[];
    try {
      refs = links(next.record, { ...context, uri: next.uri, fileName: posix.basename(next.uri) });
    } catch {
      refs = [];
    }
    for (const ref of refs) {
      const uri = resolveLink(next.uri, ref);
      if (uri === undefined) {
        linked[ref] = { ok: false, error: 'outside the indexed folder' };
        continue;
      }
      if (seen.has(uri) || seen.size > maxFiles) continue;
      seen.add(uri);
      const file = readLinked(root, uri);
      linked[uri] = file;
      if (file.ok) queue.push({ uri, record: file.value });
    }
  }
  return { ...context, linked };
}
