import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readConfig, type CreditLensConfig } from '../../../src/extension/config';
import type { IpcMessage } from '../../../src/protocol/ipc';
import { openDatabase } from '../../../src/store/database';
import { EpisodeLookup } from '../../../src/store/episodeLookup';
import { fake, type FakeWebviewPanel } from '../fakes/vscode';

// What the panel tests share (import '../fakes/registerVscodeFake' first): the default settings, a
// log, a pause for async handlers, the panel last created and what it posted.

/** The settings with every default. */
export const config: CreditLensConfig = (() => {
  const read = readConfig(() => undefined);
  assert.ok(read.ok);
  return read.value;
})();

export const log = (): vscode.LogOutputChannel => vscode.window.createOutputChannel('test', { log: true });

/** What every panel is built with in a test: an extension folder, a log and the default settings. */
export function panelHost(): {
  extensionUri: vscode.Uri;
  log: vscode.LogOutputChannel;
  config: () => CreditLensConfig;
} {
  return { extensionUri: vscode.Uri.file('/ext'), log: log(), config: () => config };
}

/** Lets the panel's async command and request handlers run. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

export function lastPanel(): FakeWebviewPanel {
  const panel = fake.panels.at(-1);
  assert.ok(panel, 'a panel was created');
  return panel;
}

/** Sends a request to the panel and returns its response's params (ok, value or error). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the response type it expects
export async function ask<R>(
  panel: FakeWebviewPanel,
  message: IpcMessage,
): Promise<{ ok: boolean; value?: R; error?: string }> {
  panel.webview.receive(message);
  await settle();
  const response = (panel.webview.posted as IpcMessage<{ ok: boolean; value?: R; error?: string }>[]).find(
    (m) => m.method === `${message.method}/response` && m.id === message.id,
  );
  assert.ok(response, `a response to ${message.method}`);
  return response.params;
}

/** The params of every message of `method` the panel posted, oldest first. */
export function posted<P>(panel: FakeWebviewPanel, method: string): P[] {
  return (panel.webview.posted as IpcMessage<P>[]).filter((m) => m.method === method).map((m) => m.params);
}

/** Row ids of episodes by external id, in the index of `root`. */
export function episodeIds(root: string, externalIds: readonly string[]): Record<string, number> {
  const db = openDatabase(join(root, '.credit-lens', 'index.sqlite'), { readonly: true });
  try {
    const lookup = new EpisodeLookup(db);
    return Object.fromEntries(externalIds.map((id) => [id, lookup.byExternalId(id)[0]?.episodeId ?? -1]));
  } finally {
    db.close();
  }
}
