import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { RunSummaryPanel, type IndexedFolder } from '../../../src/extension/panels/runSummaryPanel';
import {
  DidChangeSummaryNotification,
  ReadyCommand,
  runSummaryStateVersion,
} from '../../../src/protocol/runSummaryPanel';
import { summaryOf } from '../fakes/extensionContext';
import { fake, type FakeLogOutputChannel, type FakeWebviewPanel } from '../fakes/vscode';

const indexed: IndexedFolder = {
  folder: vscode.Uri.file('/runs/r1'),
  indexPath: '/runs/r1/.credit-lens/index.sqlite',
  cancelled: false,
  summary: summaryOf({
    files: 1,
    episodes: 1,
    errorCount: 1,
    errors: [{ file: 'sub/a.jsonl', line: 2, reason: 'invalid JSON' }],
  }),
};

function setup(): { owner: RunSummaryPanel; log: FakeLogOutputChannel; panel: () => FakeWebviewPanel } {
  const log = vscode.window.createOutputChannel('test', { log: true });
  const owner = new RunSummaryPanel({ extensionUri: vscode.Uri.file('/ext'), log });
  const panel = (): FakeWebviewPanel => {
    const last = fake.panels.at(-1);
    assert.ok(last, 'a panel was created');
    return last;
  };
  return { owner, log: fake.channels.at(-1)!, panel };
}

const ready = ReadyCommand.with({ stateVersion: runSummaryStateVersion });

beforeEach(() => {
  fake.reset();
});

test('show() opens one panel with the CSP shell and restricted resource roots', () => {
  const { owner, panel } = setup();
  owner.show(indexed);
  assert.equal(fake.panels.length, 1);
  assert.equal(panel().viewType, 'creditLens.runSummary');
  assert.equal(panel().title, 'Run Summary: r1');
  assert.match(panel().webview.html, /default-src 'none'/);
  assert.deepEqual(panel().webview.options['enableScripts'], true);
  assert.deepEqual(
    (panel().webview.options['localResourceRoots'] as vscode.Uri[]).map((u) => u.fsPath),
    ['/ext/dist/webview', '/ext/media'],
  );
});

test('the host posts the summary only after the webview is ready, and again after each reload', () => {
  const { owner, panel } = setup();
  owner.show(indexed);
  assert.deepEqual(panel().webview.posted, []);
  panel().webview.receive(ready);
  assert.equal(panel().webview.posted.length, 1);
  const [message] = panel().webview.posted as {
    method: string;
    params: { folderName: string; summary: { errors: unknown[] } };
  }[];
  assert.equal(message?.method, DidChangeSummaryNotification.method);
  assert.equal(message?.params.folderName, 'r1');
  assert.deepEqual(message?.params.summary.errors, indexed.summary.errors);
  panel().webview.receive(ready);
  assert.equal(panel().webview.posted.length, 2);
});

test('show() again reuses and reveals the panel and posts the new summary', () => {
  const { owner, panel } = setup();
  owner.show(indexed);
  panel().webview.receive(ready);
  owner.show({ ...indexed, folder: vscode.Uri.file('/runs/r2') });
  assert.equal(fake.panels.length, 1);
  assert.equal(panel().reveals, 2);
  assert.equal(panel().title, 'Run Summary: r2');
  assert.equal((panel().webview.posted[1] as { params: { folderPath: string } }).params.folderPath, '/runs/r2');
});

test('closing the panel lets show() open a fresh one; disposing the owner closes it', () => {
  const { owner, panel } = setup();
  owner.show(indexed);
  panel().dispose();
  owner.show(indexed);
  assert.equal(fake.panels.length, 2);
  owner.dispose();
  assert.equal(panel().disposed, true);
  owner.show(indexed);
  assert.equal(fake.panels.length, 2, 'a disposed owner opens nothing');
});

test('messages that are not protocol messages or fail their guard are ignored and logged', () => {
  const { owner, panel, log } = setup();
  owner.show(indexed);
  panel().webview.receive('ready');
  panel().webview.receive({ method: 'runSummary/ready', params: { stateVersion: 'one' } });
  panel().webview.receive({ method: 'runSummary/unknown', params: {} });
  assert.deepEqual(panel().webview.posted, []);
  assert.equal(log.lines.filter((line) => line.startsWith('[warn] creditLens.runSummary: ignored')).length, 3);
});

test('OpenIssueCommand opens a listed problem at its line and refuses anything else', async () => {
  const { owner, panel, log } = setup();
  owner.show(indexed);
  panel().webview.receive({ method: 'runSummary/issue/open', params: { file: 'sub/a.jsonl', line: 2 } });
  panel().webview.receive({ method: 'runSummary/issue/open', params: { file: 'sub/other.jsonl', line: 2 } });
  panel().webview.receive({ method: 'runSummary/issue/open', params: { file: '../../etc/passwd', line: 1 } });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(fake.shownDocuments.length, 1);
  const [shown] = fake.shownDocuments;
  assert.equal(shown?.uri.fsPath, '/runs/r1/sub/a.jsonl');
  assert.equal((shown?.options as { selection: vscode.Range }).selection.start.line, 1);
  assert.ok(log.lines.some((line) => line.includes('refused to open sub/other.jsonl:2')));
});
