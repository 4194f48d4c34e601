import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The index folder inside a run folder. */
export const indexFolderName = '.credit-lens';
export const indexFileName = 'index.sqlite';

/** Where an index lives and why it is there. */
export interface IndexLocation {
  readonly path: string;
  readonly kind: 'explicit' | 'run-folder' | 'user-cache';
}

/**
 * Chooses the index file of a run folder: the explicit path when given, else
 * `<run>/.credit-lens/index.sqlite`, else (the run folder is read-only) a per-folder file in the
 * user cache (`$XDG_CACHE_HOME/credit-lens/<hash of the folder path>/`). Creates the folder.
 */
export function resolveIndexLocation(root: string, explicit?: string, cacheHome = defaultCacheHome()): IndexLocation {
  if (!explicit) {
    // An index that already exists wins, so a folder that became read-only keeps its cached index.
    const existing = findIndexLocation(root, undefined, cacheHome);
    if (existing) return existing;
  }
  if (explicit) {
    const path = resolve(explicit);
    mkdirSync(join(path, '..'), { recursive: true });
    return { path, kind: 'explicit' };
  }
  const inRun = join(resolve(root), indexFolderName);
  if (isWritableFolder(inRun)) return { path: join(inRun, indexFileName), kind: 'run-folder' };
  const cached = join(cacheHome, 'credit-lens', folderKey(root));
  mkdirSync(cached, { recursive: true });
  return { path: join(cached, indexFileName), kind: 'user-cache' };
}

/** The existing index of a run folder, looked up in the same places, creating nothing. */
export function findIndexLocation(
  root: string,
  explicit?: string,
  cacheHome = defaultCacheHome(),
): IndexLocation | undefined {
  if (explicit) return existsSync(explicit) ? { path: resolve(explicit), kind: 'explicit' } : undefined;
  const inRun = join(resolve(root), indexFolderName, indexFileName);
  if (existsSync(inRun)) return { path: inRun, kind: 'run-folder' };
  const cached = join(cacheHome, 'credit-lens', folderKey(root), indexFileName);
  return existsSync(cached) ? { path: cached, kind: 'user-cache' } : undefined;
}

/** The per-folder key of indexes kept outside the run folder: a hash of its absolute path. */
export function folderKey(root: string): string {
  return createHash('sha256').update(resolve(root)).digest('hex').slice(0, 16);
}

function isWritableFolder(folder: string): boolean {
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function defaultCacheHome(): string {
  return process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
}
