import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventEmitter, Uri } from './vscode';

// The fake `vscode`'s status bar items, file watchers and `findFiles` (re-exported by vscode.ts).
export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export class FakeStatusBarItem {
  text = '';
  tooltip?: string;
  command?: string;
  shown = false;
  disposed = false;
  constructor(
    readonly alignment?: StatusBarAlignment,
    readonly priority?: number,
  ) {}
  show(): void {
    this.shown = true;
  }
  dispose(): void {
    this.disposed = true;
  }
}

export class RelativePattern {
  constructor(
    readonly base: Uri,
    readonly pattern: string,
  ) {}
}

/** A file watcher whose events a test fires; `ignores` records which kinds it asked not to get. */
export class FakeFileSystemWatcher {
  private readonly created = new EventEmitter<Uri>();
  private readonly changed = new EventEmitter<Uri>();
  private readonly deleted = new EventEmitter<Uri>();
  readonly onDidCreate = this.created.event;
  readonly onDidChange = this.changed.event;
  readonly onDidDelete = this.deleted.event;
  disposed = false;
  constructor(
    readonly pattern: string | RelativePattern,
    readonly ignores: { create: boolean; change: boolean; delete: boolean },
  ) {}
  fire(kind: 'create' | 'change' | 'delete', uri: Uri): void {
    if (this.ignores[kind]) return;
    ({ create: this.created, change: this.changed, delete: this.deleted })[kind].fire(uri);
  }
  dispose(): void {
    this.disposed = true;
  }
}

export interface FindFilesCall {
  readonly include: string;
  readonly exclude: string | undefined;
  readonly maxResults: number | undefined;
}

/**
 * `findFiles` over the real files under `roots` (the workspace folders): paths relative to their folder matched
 * against the include and exclude globs (`**`, `*`, `?`, `{a,b}`), at most `maxResults`.
 */
export function findOnDisk(roots: readonly string[], { include, exclude, maxResults }: FindFilesCall): Uri[] {
  const matches = globToRegExp(include);
  const excluded = exclude === undefined ? undefined : globToRegExp(exclude);
  const found: Uri[] = [];
  for (const root of roots) {
    for (const rel of listFiles(root, '')) {
      if (matches.test(rel) && !excluded?.test(rel)) found.push(Uri.file(join(root, rel)));
    }
  }
  return found.slice(0, maxResults ?? found.length);
}

function listFiles(root: string, rel: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      return entry.isDirectory() ? listFiles(root, path) : [path];
    });
}

/** A VS Code glob as a regular expression over `/`-separated relative paths. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '{') {
      source += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      source += ')';
      depth--;
    } else if (c === ',' && depth > 0) source += '|';
    else source += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
