import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { buildWebviewHtml, escapeHtml, webviewOptions } from '../../../src/extension/html';
import { createNonce } from '../../../src/extension/nonce';
import { FakeWebview } from '../fakes/vscode';

const extensionUri = vscode.Uri.file('/ext');
const webview = new FakeWebview({}) as unknown as vscode.Webview;
const nonce = createNonce();
const html = buildWebviewHtml({
  webview,
  extensionUri,
  nonce,
  script: ['dist', 'webview', 'main.js'],
  styles: [['media', 'summary.css']],
  title: 'Credit Lens: <Run> "Summary"',
});

function csp(): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(match?.[1], 'the document has a CSP meta tag');
  return match[1];
}

test('buildWebviewHtml(options) sets the strict CSP of house-style §8', () => {
  assert.equal(
    csp(),
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src https://webview.test; img-src https://webview.test data:; font-src https://webview.test`,
  );
  assert.doesNotMatch(html, /unsafe-(eval|inline)/);
});

test('buildWebviewHtml(options) puts the nonce on every <script>', () => {
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  assert.ok(scripts.length > 0);
  for (const script of scripts) assert.ok(script.includes(`nonce="${nonce}"`), script);
});

test('buildWebviewHtml(options) loads every asset through asWebviewUri and nothing over http(s)', () => {
  const urls = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(urls, ['webview-resource:///ext/media/summary.css', 'webview-resource:///ext/dist/webview/main.js']);
  const withoutCspSource = html.replaceAll('https://webview.test', '');
  assert.doesNotMatch(withoutCspSource, /https?:/);
});

test('buildWebviewHtml(options) escapes the title', () => {
  assert.ok(html.includes('<title>Credit Lens: &lt;Run&gt; &quot;Summary&quot;</title>'));
  assert.equal(escapeHtml(`a&b<c>"d"'e'`), `a&amp;b&lt;c&gt;&quot;d&quot;'e'`);
});

test('webviewOptions(extensionUri) enables scripts and limits resources to dist/webview and media', () => {
  const options = webviewOptions(extensionUri);
  assert.equal(options.enableScripts, true);
  assert.equal(options.enableCommandUris, false);
  assert.deepEqual(
    options.localResourceRoots?.map((uri) => uri.fsPath),
    ['/ext/dist/webview', '/ext/media'],
  );
});
