import { join } from 'node:path';
import type * as vscode from 'vscode';
import { emptyTally, type IndexTally } from '../../../src/core/indexProgress';
import type { IndexSummary } from '../../../src/core/indexSummary';
import type { IndexJobResult } from '../../../src/engine/indexJob';
import { EventEmitter, Uri } from './vscode';
import { tempFolder as tempTestFolder } from '../../builders/episodeBuilder';

/** The parts of an ExtensionContext that src/extension reads, over the fake `vscode`; pass `workspaceState` (or `secrets`) to keep it across activations. */
export function fakeExtensionContext(
  extensionPath = join(__dirname, '..', '..', '..'),
  workspaceState = new FakeMemento(),
  secrets = new FakeSecretStorage(),
): vscode.ExtensionContext {
  const context = {
    subscriptions: [] as { dispose(): unknown }[],
    extensionUri: Uri.file(extensionPath),
    extensionPath,
    extension: { packageJSON: { version: '0.1.0' } },
    workspaceState,
    secrets,
  };
  return context as unknown as vscode.ExtensionContext;
}

/** An in-memory `vscode.SecretStorage` (`context.secrets`) that records every call. */
export class FakeSecretStorage {
  readonly values = new Map<string, string>();
  readonly calls: string[] = [];
  private readonly changed = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changed.event;
  get(key: string): Promise<string | undefined> {
    this.calls.push(`get ${key}`);
    return Promise.resolve(this.values.get(key));
  }
  keys(): Promise<string[]> {
    return Promise.resolve([...this.values.keys()]);
  }
  store(key: string, value: string): Promise<void> {
    this.calls.push(`store ${key}`);
    this.values.set(key, value);
    this.changed.fire({ key });
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.calls.push(`delete ${key}`);
    this.values.delete(key);
    this.changed.fire({ key });
    return Promise.resolve();
  }
}

/** An in-memory `vscode.Memento` (workspaceState). */
export class FakeMemento {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : defaultValue) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    return Promise.resolve();
  }
}

/** A fresh empty folder under the OS temp folder, removed when the test process exits. */
export function tempFolder(prefix = 'credit-lens-ext-'): string {
  return tempTestFolder(prefix);
}

/** An index summary with every count at zero, overridden by `fields`. */
export function summaryOf(fields: Partial<IndexSummary> = {}): IndexSummary {
  return {
    files: 0,
    runs: [],
    episodes: 0,
    messages: 0,
    agents: 0,
    steps: 0,
    searchableEpisodes: 0,
    errorCount: 0,
    errors: [],
    ...fields,
  };
}

/** A tally of a finished pass, overridden by `fields`. */
export function tallyOf(fields: Partial<IndexTally> = {}): IndexTally {
  return { ...emptyTally(), ...fields };
}

/** What a worker would resolve with, for stubbed index runs. */
export function jobResultOf(
  summary: IndexSummary,
  tally: IndexTally = tallyOf(),
): IndexJobResult & { maxRssBytes: number } {
  return { index: { path: '/runs/r/.credit-lens/index.sqlite', kind: 'run-folder' }, summary, tally, maxRssBytes: 0 };
}

/** Resolves once `condition()` holds, checking after each turn of the event loop (5 s at most). */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
