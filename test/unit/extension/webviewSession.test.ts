import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { WebviewSession } from '../../../src/extension/panels/webviewSession';
import { IpcCommand, IpcNotification, IpcRequest, isRecord } from '../../../src/protocol/ipc';
import { fake, type FakeLogOutputChannel, type FakeWebviewPanel } from '../fakes/vscode';

const isCount = (value: unknown): value is { n: number } => isRecord(value) && Number.isSafeInteger(value['n']);
const Ready = new IpcCommand<{ n: number }>('t/ready', isCount);
const Double = new IpcRequest<{ n: number }, number>('t/double', isCount);
const Poke = new IpcCommand<{ n: number }>('t/poke', isCount);
const Changed = new IpcNotification<{ text: string }>('t/changed');

function setup(): {
  session: WebviewSession;
  panel: FakeWebviewPanel;
  log: FakeLogOutputChannel;
  disposed: () => number;
} {
  const log = vscode.window.createOutputChannel('test', { log: true });
  const panel = vscode.window.createWebviewPanel(
    't.view',
    'T',
    vscode.ViewColumn.Active,
    {},
  ) as unknown as FakeWebviewPanel;
  let disposedCount = 0;
  const session = new WebviewSession(
    panel as unknown as vscode.WebviewPanel,
    vscode.Uri.file('/ext'),
    { script: 'episode', style: 'episode.css', title: 'T' },
    log,
    () => {
      disposedCount++;
    },
  );
  return { session, panel, log: fake.channels.at(-1)!, disposed: () => disposedCount };
}

/** Lets queued promise callbacks (request handlers, responses) run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  fake.reset();
});

test('the session builds the CSP shell for its entry and resets the panel options', () => {
  const { panel } = setup();
  assert.match(panel.webview.html, /default-src 'none'; script-src 'nonce-/);
  assert.match(panel.webview.html, /dist\/webview\/episode\.js/);
  assert.match(panel.webview.html, /media\/webview\.css[\s\S]*media\/episode\.css/);
  assert.deepEqual(
    (panel.webview.options['localResourceRoots'] as vscode.Uri[]).map((u) => u.fsPath),
    ['/ext/dist/webview', '/ext/media'],
  );
  assert.equal(panel.webview.options['enableCommandUris'], false);
});

test('notifications are dropped until the ready command, then posted', () => {
  const { session, panel } = setup();
  const seen: number[] = [];
  session.onReady(Ready, ({ n }) => seen.push(n));
  session.notify(Changed, { text: 'early' });
  assert.deepEqual(panel.webview.posted, []);
  panel.webview.receive(Ready.with({ n: 1 }));
  assert.deepEqual(seen, [1]);
  assert.equal(session.isReady, true);
  session.notify(Changed, { text: 'late' });
  assert.deepEqual(panel.webview.posted, [{ method: 't/changed', params: { text: 'late' } }]);
});

test('a request is answered under its id with the value, or with the error text', async () => {
  const { session, panel } = setup();
  session.onRequest(Double, ({ n }) => {
    if (n < 0) throw new Error('negative');
    return n * 2;
  });
  panel.webview.receive(Double.with({ n: 21 }, 7));
  panel.webview.receive(Double.with({ n: -1 }, 8));
  await settle();
  assert.deepEqual(panel.webview.posted, [
    { method: 't/double/response', id: 7, params: { ok: true, value: 42 } },
    { method: 't/double/response', id: 8, params: { ok: false, error: 'negative' } },
  ]);
});

test('invalid params, a request without id and unknown methods are logged and dropped', async () => {
  const { session, panel, log } = setup();
  let calls = 0;
  session.onRequest(Double, () => ++calls);
  session.onCommand(Poke, () => {
    calls++;
  });
  panel.webview.receive(Double.with({ n: 'x' } as unknown as { n: number }, 1));
  panel.webview.receive(Double.with({ n: 1 }));
  panel.webview.receive(Poke.with({ n: 1.5 }));
  panel.webview.receive({ method: 't/unknown', params: {} });
  panel.webview.receive('not a message');
  await settle();
  assert.equal(calls, 0);
  assert.deepEqual(panel.webview.posted, []);
  assert.equal(log.lines.filter((l) => l.startsWith('[warn]')).length, 5);
});

test('a failing command handler is logged, not thrown into the extension host', async () => {
  const { session, panel, log } = setup();
  session.onCommand(Poke, () => Promise.reject(new Error('boom')));
  panel.webview.receive(Poke.with({ n: 1 }));
  await settle();
  assert.ok(log.lines.some((l) => l.startsWith('[error]') && l.includes('boom')));
});

test('closing the panel runs the dispose callback once and stops posting', async () => {
  const { session, panel, disposed } = setup();
  session.onRequest(Double, ({ n }) => n);
  panel.webview.receive(Double.with({ n: 1 }, 1));
  panel.dispose();
  await settle();
  assert.equal(disposed(), 1);
  assert.equal(session.isDisposed, true);
  assert.deepEqual(panel.webview.posted, []);
});
