import { FakeMemento } from '../fakes/extensionContext';
import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, beforeEach, describe, test } from 'node:test';
import * as vscode from 'vscode';
import { readIndexSummary, runIndexJob } from '../../../src/engine/indexJob';
import { readConfig, type CreditLensConfig } from '../../../src/extension/config';
import { DashboardPanel } from '../../../src/extension/panels/dashboardPanel';
import { EpisodePanel } from '../../../src/extension/panels/episodePanel';
import type { PanelHost } from '../../../src/extension/panels/panelHost';
import { RunSummaryPanel } from '../../../src/extension/panels/runSummaryPanel';
import { DashboardReadyCommand, DidChangeRunsNotification } from '../../../src/protocol/dashboardPanel';
import { DidChangeEpisodeNotification, EpisodeReadyCommand } from '../../../src/protocol/episodePanel';
import type { IpcMessage } from '../../../src/protocol/ipc';
import { DidChangeSummaryNotification, ReadyCommand } from '../../../src/protocol/runSummaryPanel';
import { openDatabase } from '../../../src/store/database';
import { EpisodeLookup } from '../../../src/store/episodeLookup';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake, type FakeWebviewPanel } from '../fakes/vscode';

// The one panel host, driven through each of the three panels that stand on it: show, restore by
// the registered serializer, the place remembered for a webview that saved none, and adoption.

let root: string;
let other: string;
let e2: number;
const config: CreditLensConfig = (() => {
  const read = readConfig(() => undefined);
  assert.ok(read.ok);
  return read.value;
})();

before(async () => {
  root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('e1'), episode('e2', { step: 2 })));
  await runIndexJob({ root });
  other = tempFolder();
  writeFileSync(join(other, 'b.jsonl'), jsonl(episode('x1')));
  await runIndexJob({ root: other });
  const db = openDatabase(join(root, '.credit-lens', 'index.sqlite'), { readonly: true });
  e2 = new EpisodeLookup(db).byExternalId('e2')[0]!.episodeId;
  db.close();
});

beforeEach(() => {
  fake.reset();
});

interface Made {
  readonly owner: PanelHost<unknown>;
  readonly show: (folder: string) => void;
}

/** One kind of panel as these tests drive it. */
interface Kind {
  readonly name: string;
  readonly viewType: string;
  readonly script: string;
  /** A new owner of the kind, and how to show the fixture's place in `folder` in it. */
  make(memory?: vscode.Memento): Made;
  /** The state the webview saves on the fixture's place. */
  saved(folder: string): unknown;
  readonly ready: IpcMessage;
  readonly data: string;
  /** What the posted data is about (a folder or an episode), to compare with the place. */
  about(params: unknown): string;
}

const base = (): { extensionUri: vscode.Uri; log: vscode.LogOutputChannel } => ({
  extensionUri: vscode.Uri.file('/ext'),
  log: vscode.window.createOutputChannel('test', { log: true }),
});
const builtin = (): { choice: { kind: 'builtin'; name: string; options: Record<string, never> } } => ({
  choice: { kind: 'builtin', name: 'final-answer', options: {} },
});

const kinds: readonly Kind[] = [
  {
    name: 'Episode',
    viewType: EpisodePanel.viewType,
    script: 'episode.js',
    make: (memory) => {
      const owner = new EpisodePanel({
        ...base(),
        config: () => config,
        evaluator: builtin,
        ...(memory ? { memory } : {}),
      });
      return { owner, show: (folder) => owner.show(vscode.Uri.file(folder), folder === root ? e2 : 1) };
    },
    saved: (folder) => ({ version: 1, ref: { folder, episodeId: folder === root ? e2 : 1 }, method: 'loo' }),
    ready: EpisodeReadyCommand.with({ stateVersion: 1, ref: null }),
    data: DidChangeEpisodeNotification.method,
    about: (params) => (params as { ref: { folder: string } }).ref.folder,
  },
  {
    name: 'Dashboard',
    viewType: DashboardPanel.viewType,
    script: 'dashboard.js',
    make: (memory) => {
      const owner = new DashboardPanel({
        ...base(),
        config: () => config,
        evaluator: builtin,
        openEpisode: () => undefined,
        ...(memory ? { memory } : {}),
      });
      return { owner, show: (folder) => owner.show(vscode.Uri.file(folder)) };
    },
    saved: (folder) => ({ version: 1, folder, runId: null, filter: {} }),
    ready: DashboardReadyCommand.with({ stateVersion: 1, folder: null }),
    data: DidChangeRunsNotification.method,
    about: (params) => (params as { folder: string }).folder,
  },
  {
    name: 'Run Summary',
    viewType: RunSummaryPanel.viewType,
    script: 'main.js',
    make: (memory) => {
      const owner = new RunSummaryPanel({ ...base(), ...(memory ? { memory } : {}) });
      const show = (folder: string): void => {
        const { index, summary } = readIndexSummary(folder);
        owner.show({ folder: vscode.Uri.file(folder), indexPath: index.path, summary, cancelled: false });
      };
      return { owner, show };
    },
    saved: (folder) => ({ version: 1, folder }),
    ready: ReadyCommand.with({ stateVersion: 1 }),
    data: DidChangeSummaryNotification.method,
    about: (params) => (params as { folderPath: string }).folderPath,
  },
];

/** A panel VS Code revives after a reload (not yet adopted by any owner). */
function revived(viewType: string): FakeWebviewPanel {
  return vscode.window.createWebviewPanel(viewType, 'old title', vscode.ViewColumn.Active, {
    localResourceRoots: [vscode.Uri.file('/old-extension-folder')],
  }) as unknown as FakeWebviewPanel;
}

/** Plays VS Code's reload: the serializer registered for the view type gets the panel and the saved state. */
async function deserialize(viewType: string, panel: FakeWebviewPanel, state: unknown): Promise<void> {
  const serializer = fake.serializers.get(viewType);
  assert.ok(serializer, `a serializer for ${viewType}`);
  await serializer.deserializeWebviewPanel(panel, state);
}

function aboutPosted(kind: Kind, panel: FakeWebviewPanel): string[] {
  return (panel.webview.posted as IpcMessage[]).filter((m) => m.method === kind.data).map((m) => kind.about(m.params));
}

for (const kind of kinds) {
  describe(`${kind.name} panel on the panel host`, () => {
    test('show() opens one panel of its view type with its bundle and reuses it; data waits for ready', () => {
      const { owner, show } = kind.make();
      show(root);
      show(other);
      assert.equal(fake.panels.length, 1);
      const [panel] = fake.panels;
      assert.equal(panel?.viewType, kind.viewType);
      assert.equal(panel?.reveals, 2);
      assert.ok(panel?.webview.html.includes(kind.script), `${kind.script} in the HTML`);
      assert.match(panel?.webview.html ?? '', /webview\.css/);
      assert.deepEqual(panel?.webview.posted, []);
      panel?.webview.receive(kind.ready);
      assert.ok(panel);
      assert.deepEqual(aboutPosted(kind, panel), [other]);
      owner.dispose();
      assert.equal(panel?.disposed, true);
    });

    test('the registered serializer restores a revived panel on the place its webview saved', async () => {
      const { owner, show } = kind.make();
      const registration = owner.registerSerializer();
      const panel = revived(kind.viewType);
      await deserialize(kind.viewType, panel, kind.saved(other));
      assert.ok(panel.webview.html.includes(kind.script), 'the HTML is built again');
      assert.deepEqual(
        (panel.webview.options['localResourceRoots'] as vscode.Uri[]).map((u) => u.fsPath),
        ['/ext/dist/webview', '/ext/media'],
        'the options of the old extension folder are reset',
      );
      panel.webview.receive(kind.ready);
      assert.deepEqual(aboutPosted(kind, panel), [other]);
      show(root);
      assert.equal(fake.panels.length, 1, 'show() reuses the adopted panel');
      registration.dispose();
      assert.equal(fake.serializers.has(kind.viewType), false);
      owner.dispose();
    });

    test('a panel revived before its webview saved state comes back on the place last shown', async () => {
      const memory = new FakeMemento() as unknown as vscode.Memento;
      const first = kind.make(memory);
      first.show(other);
      first.owner.dispose();
      const { owner: second } = kind.make(memory);
      second.registerSerializer();
      const panel = revived(kind.viewType);
      await deserialize(kind.viewType, panel, undefined);
      panel.webview.receive(kind.ready);
      assert.deepEqual(aboutPosted(kind, panel), [other]);
      second.dispose();
    });

    test('a bad saved state and no memory restore an empty panel without throwing', async () => {
      const { owner } = kind.make();
      owner.registerSerializer();
      const panel = revived(kind.viewType);
      await deserialize(kind.viewType, panel, { version: 1, ref: { folder: 42 }, folder: ['not', 'a', 'path'] });
      panel.webview.receive(kind.ready);
      assert.deepEqual(aboutPosted(kind, panel), []);
      assert.equal(panel.disposed, false);
      owner.dispose();
    });

    test('a second revived panel, or one revived after disposal, is closed; closing lets show() open anew', async () => {
      const { owner, show } = kind.make();
      owner.registerSerializer();
      const kept = revived(kind.viewType);
      const extra = revived(kind.viewType);
      await deserialize(kind.viewType, kept, kind.saved(root));
      await deserialize(kind.viewType, extra, kind.saved(root));
      assert.equal(kept.disposed, false);
      assert.equal(extra.disposed, true);
      kept.dispose();
      show(root);
      assert.equal(fake.panels.length, 3, 'a fresh panel after the adopted one was closed');
      owner.dispose();
      const late = revived(kind.viewType);
      owner.restore(late as unknown as vscode.WebviewPanel, kind.saved(root));
      assert.equal(late.disposed, true);
    });
  });
}
