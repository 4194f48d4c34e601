// A static server for the webview harness: serves the built bundles (dist/webview), the static
// media, the harness themes, and one page per webview entry built like the real panel's HTML (a
// nonce'd script, the production CSP with 'self' standing in for the webview resource origin).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..', '..');
const mounts: Readonly<Record<string, string>> = {
  '/dist/webview/': join(root, 'dist', 'webview'),
  '/media/': join(root, 'media'),
  '/harness/': import.meta.dirname,
};
const contentTypes: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export type HarnessTheme = 'light' | 'dark' | 'high-contrast';

/** One webview page: its bundle under dist/webview and its stylesheets under media/. */
export interface HarnessEntry {
  /** Bundle name without extension: `episode` serves dist/webview/episode.js. */
  readonly script: string;
  /** Stylesheets under media/, e.g. `['webview.css', 'episode.css']`. */
  readonly styles: readonly string[];
}

export interface HarnessServer {
  readonly origin: string;
  /** URL of the page for `entry` in `theme`. */
  pageUrl(entry: HarnessEntry, theme: HarnessTheme): string;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export async function startHarnessServer(): Promise<HarnessServer> {
  const server = createServer((request, response) => {
    void handle(request.url ?? '/').then(({ status, type, body, csp }) => {
      response.writeHead(status, { 'content-type': type, ...(csp ? { 'content-security-policy': csp } : {}) });
      response.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  // A harness left open by a failed test must not keep the test process alive.
  server.unref();
  const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return {
    origin,
    pageUrl: (entry, theme) =>
      `${origin}/page?script=${encodeURIComponent(entry.script)}&styles=${encodeURIComponent(entry.styles.join(','))}&theme=${theme}`,
    close: () => closeServer(server),
  };
}

interface Reply {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
  readonly csp?: string;
}

async function handle(rawUrl: string): Promise<Reply> {
  const url = new URL(rawUrl, 'http://harness');
  if (url.pathname === '/page') return page(url.searchParams);
  if (url.pathname === '/favicon.ico') return { status: 204, type: 'image/x-icon', body: '' };
  for (const [prefix, dir] of Object.entries(mounts)) {
    if (!url.pathname.startsWith(prefix)) continue;
    const file = normalize(join(dir, decodeURIComponent(url.pathname.slice(prefix.length))));
    if (!file.startsWith(dir)) break;
    try {
      return {
        status: 200,
        type: contentTypes[extname(file)] ?? 'application/octet-stream',
        body: await readFile(file),
      };
    } catch {
      break;
    }
  }
  return { status: 404, type: 'text/plain', body: 'not found' };
}

function page(params: URLSearchParams): Reply {
  const nonce = randomBytes(16).toString('base64');
  const script = (params.get('script') ?? '').replace(/[^\w-]/g, '');
  const styles = (params.get('styles') ?? '').split(',').filter((s) => /^[\w.-]+\.css$/.test(s));
  const theme = params.get('theme') ?? 'dark';
  // The production CSP of src/extension/html.ts, with 'self' for the webview's resource origin.
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'self'; img-src 'self' data:; font-src 'self'`;
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    `<link rel="stylesheet" href="/harness/theme-${theme.replace(/[^\w-]/g, '')}.css">`,
    ...styles.map((s) => `<link rel="stylesheet" href="/media/${s}">`),
    '<title>Credit Lens webview harness</title>',
    '</head>',
    `<body class="vscode-${theme.replace(/[^\w-]/g, '')}" data-vscode-theme-kind="vscode-${theme.replace(/[^\w-]/g, '')}">`,
    '<main id="app"></main>',
    `<script nonce="${nonce}" src="/harness/shim.js"></script>`,
    `<script nonce="${nonce}" src="/dist/webview/${script}.js"></script>`,
    '</body>',
    '</html>',
  ].join('\n');
  return { status: 200, type: 'text/html; charset=utf-8', body: html, csp };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.closeAllConnections();
    server.close(() => {
      done();
    });
  });
}
