// Drives a real webview bundle in headless Chromium (Debian's, through playwright-core) on the
// harness page of server.ts, with a scripted host standing in for the extension (docs/architecture.md §8.4).
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { isIpcMessage, type IpcMessage, type IpcNotification } from '../../../src/protocol/ipc';
import { chromiumArgs, chromiumPath } from '../../chromium';
import { startHarnessServer, type HarnessEntry, type HarnessServer, type HarnessTheme } from './server';

/** Where screenshots go: test-results/webview/<name>.png. */
export const artifactsDir = resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'webview');
/** The Chromium the harness starts (test/chromium.ts). */
export { chromiumPath };

/**
 * The scripted host: called with every message the webview posts. For a request (a message with an
 * `id`), its return value is sent back as `{ok: true, value}`, and a thrown error as
 * `{ok: false, error}`; `undefined` from a request handler leaves the request unanswered.
 */
export type ScriptedHost = (message: IpcMessage, harness: WebviewHarness) => unknown;

export interface WebviewHarness {
  readonly page: Page;
  /** Every message the webview posted, oldest first. */
  readonly posted: IpcMessage[];
  /** Sends a host → webview notification. */
  notify<P>(notification: IpcNotification<P>, params: P): Promise<void>;
  /** Sends any message as the host would (for raw responses or malformed input). */
  postRaw(message: unknown): Promise<void>;
  /** Resolves with the first posted message (past or future) for which `match` holds. */
  waitForPosted(match: (message: IpcMessage) => boolean, timeoutMs?: number): Promise<IpcMessage>;
  /** Saves test-results/webview/<name>.png. */
  screenshot(name: string): Promise<void>;
  /** Reloads the page (state survives, as in VS Code) and waits for it to load. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly entry: HarnessEntry;
  readonly host: ScriptedHost;
  readonly theme?: HarnessTheme;
  readonly viewport?: { readonly width: number; readonly height: number };
}

/** A browser and the harness server, shared by the tests of one file. */
export interface HarnessBrowser {
  open(options: HarnessOptions): Promise<WebviewHarness>;
  close(): Promise<void>;
}

/** True when Debian's Chromium is installed (the browser tests need it; CI installs it). */
export function hasChromium(): boolean {
  return existsSync(chromiumPath);
}

/** How long Chromium may take to start before the suite fails with the reason (it starts in ~1 s). */
export const launchTimeoutMs = 20_000;

/**
 * Starts the harness server and Chromium. A browser that does not start within `launchTimeoutMs`
 * rejects with the reason, and the server it started is closed, so nothing keeps the process alive.
 */
export async function launchHarnessBrowser(): Promise<HarnessBrowser> {
  const server = await startHarnessServer();
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [...chromiumArgs],
      timeout: launchTimeoutMs,
    });
  } catch (error) {
    await server.close();
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new Error(
      `Chromium (${chromiumPath}) could not start (launch timeout ${String(launchTimeoutMs / 1000)} s): ${reason}`,
    );
  }
  return {
    open: (options) => openHarness(browser, server, options),
    close: async () => {
      try {
        await withTimeout(browser.close(), 10_000, 'closing Chromium');
      } finally {
        await server.close();
      }
    },
  };
}

/** Resolves or rejects as `work` does, or rejects after `ms` naming `what`. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} took over ${String(ms)} ms`));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

async function openHarness(browser: Browser, server: HarnessServer, options: HarnessOptions): Promise<WebviewHarness> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1200, height: 800 } });
  const page = await context.newPage();
  const posted: IpcMessage[] = [];
  const waiters: { match: (m: IpcMessage) => boolean; resolve: (m: IpcMessage) => void }[] = [];
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });

  const postRaw = async (message: unknown): Promise<void> => {
    await page.evaluate((data) => {
      // Runs in the page; this file is type-checked without DOM types.
      const page = globalThis as unknown as {
        postMessage(data: unknown, origin: string): void;
        location: { origin: string };
      };
      page.postMessage(data, page.location.origin);
    }, message);
  };

  const harness: WebviewHarness = {
    page,
    posted,
    notify: (notification, params) => postRaw(notification.with(params)),
    postRaw,
    waitForPosted: (match, timeoutMs = 10_000) => {
      const seen = posted.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolvePromise, reject) => {
        const timer = setTimeout(() => {
          reject(
            new Error(
              `no posted message matched within ${String(timeoutMs)} ms; posted: ${posted.map((m) => m.method).join(', ')}`,
            ),
          );
        }, timeoutMs);
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer);
            resolvePromise(m);
          },
        });
      });
    },
    screenshot: async (name) => {
      mkdirSync(artifactsDir, { recursive: true });
      await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: false });
    },
    reload: async () => {
      await page.reload({ waitUntil: 'load' });
    },
    close: async () => {
      await context.close();
      if (pageErrors.length > 0) throw new Error(`the webview logged errors:\n${pageErrors.join('\n')}`);
    },
  };

  await page.exposeFunction('__harnessPosted', async (message: unknown) => {
    if (!isIpcMessage(message)) return;
    posted.push(message);
    for (const waiter of waiters.splice(0).filter((w) => {
      const hit = w.match(message);
      if (!hit) waiters.push(w);
      return hit;
    }))
      waiter.resolve(message);
    await answer(harness, options.host, message);
  });
  await page.goto(server.pageUrl(options.entry, options.theme ?? 'dark'), { waitUntil: 'load' });
  return harness;
}

async function answer(harness: WebviewHarness, host: ScriptedHost, message: IpcMessage): Promise<void> {
  let reply: { ok: true; value: unknown } | { ok: false; error: string } | undefined;
  try {
    const value = await host(message, harness);
    if (message.id !== undefined && value !== undefined) reply = { ok: true, value };
  } catch (error) {
    if (message.id !== undefined) reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (reply !== undefined && message.id !== undefined) {
    await harness.postRaw({ method: `${message.method}/response`, id: message.id, params: reply });
  }
}
