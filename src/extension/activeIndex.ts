import * as vscode from 'vscode';
import { findIndexLocation } from '../engine/indexLocation';
import { BrowseRepository } from '../store/browseRepository';
import { openDatabase, type Db } from '../store/database';
import type { BrowseIndex } from './tree/treeItems';

/**
 * The run folder the Runs and Flags views show: the last one indexed or audited, else the first
 * workspace folder that already has an index. Holds one read-only connection (WAL lets it read
 * while a worker writes); reopened when the folder changes, closed on dispose.
 */
export class ActiveIndex implements vscode.Disposable {
  private current: { readonly index: BrowseIndex; readonly db: Db } | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    /** The index file the settings ask for, or undefined for the default lookup. */
    private readonly configuredPath: (root: string) => string | undefined = () => undefined,
  ) {}

  /** The open index, for the views; undefined when no folder has been indexed yet. */
  get(): BrowseIndex | undefined {
    return this.current?.index;
  }

  /** Shows `folder`; returns false (and logs why) when it has no index or it cannot be opened. */
  show(folder: vscode.Uri): boolean {
    const location = findIndexLocation(folder.fsPath, this.configuredPath(folder.fsPath));
    if (!location) return false;
    try {
      const db = openDatabase(location.path, { readonly: true });
      this.close();
      this.current = { index: { folder, repository: new BrowseRepository(db) }, db };
      return true;
    } catch (error) {
      this.log.warn(`Cannot open the index of ${folder.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /** Shows the first workspace folder that already has an index, and returns it. */
  showFirstIndexedWorkspaceFolder(): vscode.Uri | undefined {
    return (vscode.workspace.workspaceFolders ?? []).find((folder) => this.show(folder.uri))?.uri;
  }

  dispose(): void {
    this.close();
  }

  private close(): void {
    this.current?.db.close();
    this.current = undefined;
  }
}
