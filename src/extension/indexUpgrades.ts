import type * as vscode from 'vscode';
import type { IndexJobResult } from '../engine/indexJob';
import type { UnopenedIndex } from './activeIndex';

export interface IndexUpgradesDeps {
  readonly log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  /** One indexing pass over the folder, in the index worker (it migrates the index first). */
  readonly pass: (folder: vscode.Uri) => Promise<IndexJobResult>;
  /** The pass upgraded the folder's index: reopen it and refresh what shows it. */
  readonly onUpgraded: (folder: vscode.Uri) => void;
  /** The pass failed: the views show why ({@link IndexUpgrades.describe}). */
  readonly onFailed: (folder: vscode.Uri) => void;
}

/**
 * Upgrades the indexes an older Credit Lens wrote, once per folder, as soon as the views find one.
 * The views open indexes read-only, and a read-only connection never migrates (store/migrate.ts
 * assertReadableSchema refuses it instead); without this, such an index stayed unreadable until
 * its trace files changed or the user indexed it by hand, and the views said there was no index.
 */
export class IndexUpgrades {
  private readonly running = new Set<string>();
  private readonly failures = new Map<string, string>();

  constructor(private readonly deps: IndexUpgradesDeps) {}

  /** Starts the upgrade of `unopened`'s index when it needs one and none is running or has failed. */
  start(unopened: UnopenedIndex | undefined): void {
    if (!unopened?.upgrade) return;
    const { folder } = unopened;
    const key = folder.fsPath;
    if (this.running.has(key) || this.failures.has(key)) return;
    this.running.add(key);
    this.deps.log.info(`Upgrading the index of ${key}: ${unopened.reason}`);
    this.deps.pass(folder).then(
      () => {
        this.running.delete(key);
        this.deps.log.info(`Upgraded the index of ${key}`);
        this.deps.onUpgraded(folder);
      },
      (error: unknown) => {
        this.running.delete(key);
        const reason = error instanceof Error ? error.message : String(error);
        this.failures.set(key, reason);
        this.deps.log.warn(`Could not upgrade the index of ${key}: ${reason}`);
        this.deps.onFailed(folder);
      },
    );
  }

  /** What the views say instead of their content while `unopened`'s index is not open; undefined when it is. */
  describe(unopened: UnopenedIndex | undefined): string | undefined {
    if (!unopened) return undefined;
    if (!unopened.upgrade) return `Cannot open the Credit Lens index: ${unopened.reason}`;
    const failure = this.failures.get(unopened.folder.fsPath);
    return failure === undefined
      ? 'Upgrading the index an older Credit Lens wrote (one indexing pass)…'
      : `Could not upgrade the index an older Credit Lens wrote: ${failure}. Click to index the run folder.`;
  }

  /** Forgets a failed upgrade, so the next time the folder is shown tries again (after the user indexed it). */
  forget(folder: vscode.Uri): void {
    this.failures.delete(folder.fsPath);
  }
}
