import type * as vscode from 'vscode';
import { findIndexLocation } from '../engine/indexLocation';
import { BrowseRepository } from '../store/browseRepository';
import { openDatabase, type Db } from '../store/database';
import { IndexSchemaError } from '../store/migrate';
import type { BrowseIndex } from './tree/treeItems';

interface OpenIndex {
  readonly index: BrowseIndex;
  readonly db: Db;
}

/**
 * Why a folder's index is found but not open: `upgrade` when an older Credit Lens wrote it (an
 * indexing pass with this build migrates it), else a reason the user must act on (a newer schema,
 * an unreadable file).
 */
export interface UnopenedIndex {
  readonly folder: vscode.Uri;
  readonly reason: string;
  readonly upgrade: boolean;
}

/**
 * The indexes the Runs and Flags views read: the shown run folder's (the current one), and those of
 * the other indexed folders the Runs view lists, opened when first read. Every connection is
 * read-only (WAL lets it read while a worker writes); the shown one is reopened when shown again,
 * the others by {@link closeOthers}, and all are closed on dispose.
 */
export class ActiveIndex implements vscode.Disposable {
  private current: OpenIndex | undefined;
  private readonly others = new Map<string, OpenIndex>();
  /** Why the folder last asked to be shown has no open index, when it has one on disk. */
  private unopenedIndex: UnopenedIndex | undefined;
  /** The same for the other folders read ({@link of}), by path, until one opens. */
  private readonly unopenedOthers = new Map<string, UnopenedIndex>();

  constructor(
    private readonly log: vscode.LogOutputChannel,
    /** The index file the settings ask for, or undefined for the default lookup. */
    private readonly configuredPath: (root: string) => string | undefined = () => undefined,
  ) {}

  /** The shown index, for the views; undefined when no folder has been indexed yet. */
  get(): BrowseIndex | undefined {
    return this.current?.index;
  }

  /**
   * Why a folder's index is not open: the folder last asked to be shown ({@link show} returned false
   * on an index it found), or `folder` when given ({@link of} found none it could open); else undefined.
   */
  unopened(folder?: vscode.Uri): UnopenedIndex | undefined {
    return folder === undefined ? this.unopenedIndex : this.unopenedOthers.get(folder.fsPath);
  }

  /**
   * Shows `folder`; returns false (and logs why) when it has no index or it cannot be opened, and
   * then {@link unopened} says why when it has one.
   */
  show(folder: vscode.Uri): boolean {
    this.unopenedIndex = undefined;
    const opened = this.open(folder, (unopened) => (this.unopenedIndex = unopened));
    if (!opened) return false;
    this.current?.db.close();
    this.others.get(folder.fsPath)?.db.close();
    this.others.delete(folder.fsPath);
    this.current = opened;
    return true;
  }

  /** Shows nothing (no folder has an index any more). */
  hide(): void {
    this.current?.db.close();
    this.current = undefined;
    this.unopenedIndex = undefined;
  }

  /** The index of any folder: the shown one, else opened (and kept) on first read; undefined without one. */
  of(folder: vscode.Uri): BrowseIndex | undefined {
    if (this.current?.index.folder.fsPath === folder.fsPath) return this.current.index;
    const kept = this.others.get(folder.fsPath);
    if (kept) return kept.index;
    // Not retried on every read of the view: only after closeOthers() (a pass or a change of folder).
    if (this.unopenedOthers.has(folder.fsPath)) return undefined;
    const opened = this.open(folder, (unopened) => this.unopenedOthers.set(folder.fsPath, unopened));
    if (opened) {
      this.others.set(folder.fsPath, opened);
      this.unopenedOthers.delete(folder.fsPath);
    }
    return opened?.index;
  }

  /** Closes the connections to the folders not shown (an index may have been rebuilt or removed). */
  closeOthers(): void {
    for (const other of this.others.values()) other.db.close();
    this.others.clear();
    this.unopenedOthers.clear();
  }

  dispose(): void {
    this.closeOthers();
    this.hide();
  }

  private open(folder: vscode.Uri, onUnopened?: (why: UnopenedIndex) => void): OpenIndex | undefined {
    const location = findIndexLocation(folder.fsPath, this.configuredPath(folder.fsPath));
    if (!location) return undefined;
    try {
      const db = openDatabase(location.path, { readonly: true });
      try {
        return { index: { folder, repository: new BrowseRepository(db) }, db };
      } catch (error) {
        db.close();
        throw error;
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn(`Cannot open the index of ${folder.fsPath}: ${reason}`);
      const upgrade = error instanceof IndexSchemaError && error.direction === 'older';
      onUnopened?.({ folder, reason, upgrade });
      return undefined;
    }
  }
}
