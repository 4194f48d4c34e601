import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { err, ok, type Result } from '../../core/result';

/**
 * A path a tool was given, as a path relative to the run folder `root` (with `/` separators), or
 * an error when it resolves outside the folder: `../` that climbs out, an absolute path elsewhere,
 * or a symbolic link (anywhere on the way) that points out. A path that does not exist yet is
 * judged by its nearest existing ancestor. Tools read nothing outside the folder (docs/agent-tools.md).
 */
export function pathInFolder(root: string, path: string): Result<string> {
  if (path.includes('\u0000')) return err(`"${path}" is not a path`);
  const realRoot = realOrSelf(resolve(root));
  const lexical = resolve(root, path);
  const lexicalRelative = relative(resolve(root), lexical);
  if (!isInside(lexicalRelative) && !isInside(relative(realRoot, lexical)))
    return err(`"${path}" is outside the run folder; only paths inside it can be read`);
  if (!isInside(relative(realRoot, realOrSelf(nearestExisting(lexical)))))
    return err(`"${path}" leads outside the run folder through a symbolic link; only paths inside it can be read`);
  const inside = isInside(lexicalRelative) ? lexicalRelative : relative(realRoot, lexical);
  return ok(inside.split(sep).join('/'));
}

/** True when a relative path stays at or below its base. */
function isInside(rel: string): boolean {
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current)) {
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
  return current;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
